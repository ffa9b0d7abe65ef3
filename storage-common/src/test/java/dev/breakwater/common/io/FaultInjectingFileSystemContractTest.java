package dev.breakwater.common.io;

/** With no injector installed, the wrapper must behave exactly like what it wraps. */
class FaultInjectingFileSystemContractTest extends FileSystemContractTest {
    @Override
    FileSystem createFileSystem() {
        return new FaultInjectingFileSystem(new MemFileSystem());
    }
}
