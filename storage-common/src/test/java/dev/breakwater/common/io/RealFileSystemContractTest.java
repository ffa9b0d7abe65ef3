package dev.breakwater.common.io;

class RealFileSystemContractTest extends FileSystemContractTest {
    @Override
    FileSystem createFileSystem() {
        return RealFileSystem.create();
    }
}
