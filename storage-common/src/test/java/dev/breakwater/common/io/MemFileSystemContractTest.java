package dev.breakwater.common.io;

class MemFileSystemContractTest extends FileSystemContractTest {
    @Override
    FileSystem createFileSystem() {
        return new MemFileSystem();
    }
}
