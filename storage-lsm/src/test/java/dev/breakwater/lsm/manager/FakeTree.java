package dev.breakwater.lsm.manager;

import java.util.ArrayList;
import java.util.List;

/** A scriptable tree for policy tests: memory, oldest LSN and entries are set by the test. */
final class FakeTree implements ManagedTree {
    final String name;
    long memory;
    long oldestLsn = Long.MAX_VALUE;
    long entries;
    long share;
    boolean levelCountSettled = true;
    long flushing;
    long usefulFlush;
    final List<FlushCause> flushes = new ArrayList<>();

    FakeTree(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long memoryBytes() {
        return memory;
    }

    @Override
    public long oldestMemoryLsn() {
        return oldestLsn;
    }

    @Override
    public long entriesWritten() {
        return entries;
    }

    @Override
    public void requestFlush(FlushCause cause) {
        flushes.add(cause);
        memory = 0;
        oldestLsn = Long.MAX_VALUE;
    }

    @Override
    public long flushableBytes() {
        return memory;
    }

    @Override
    public long smallestUsefulFlushBytes() {
        return usefulFlush;
    }

    @Override
    public long flushingBytes() {
        return flushing;
    }

    @Override
    public void setMemoryPressureHandler(Runnable handler) {
    }

    @Override
    public void setWriteMemoryShare(long bytes) {
        share = bytes;
    }

    @Override
    public void setLevelCountSettled(boolean settled) {
        levelCountSettled = settled;
    }
}
