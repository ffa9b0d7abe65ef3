package dev.breakwater.lsm.manager;

/**
 * A {@link ManagedTree} that forwards every call to another one; subclasses override what they
 * observe or change (a benchmark pinning a tree's share, a test counting flush requests). Register
 * the wrapper with the {@link WriteMemoryManager} in place of the tree.
 *
 * <p>Thread safety: as the delegate's, plus whatever the subclass adds.
 */
public abstract class ForwardingManagedTree implements ManagedTree {

    private final ManagedTree delegate;

    protected ForwardingManagedTree(ManagedTree delegate) {
        this.delegate = delegate;
    }

    protected ManagedTree delegate() {
        return delegate;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public long memoryBytes() {
        return delegate.memoryBytes();
    }

    @Override
    public long oldestMemoryLsn() {
        return delegate.oldestMemoryLsn();
    }

    @Override
    public long entriesWritten() {
        return delegate.entriesWritten();
    }

    @Override
    public void requestFlush(FlushCause cause) {
        delegate.requestFlush(cause);
    }

    @Override
    public long requestFlush(FlushCause cause, long bytes) {
        return delegate.requestFlush(cause, bytes);
    }

    @Override
    public long smallestUsefulFlushBytes() {
        return delegate.smallestUsefulFlushBytes();
    }

    @Override
    public long flushableBytes() {
        return delegate.flushableBytes();
    }

    @Override
    public long flushingBytes() {
        return delegate.flushingBytes();
    }

    @Override
    public void setMemoryPressureHandler(Runnable handler) {
        delegate.setMemoryPressureHandler(handler);
    }

    @Override
    public void setWriteMemoryShare(long bytes) {
        delegate.setWriteMemoryShare(bytes);
    }

    @Override
    public void setLevelCountSettled(boolean settled) {
        delegate.setLevelCountSettled(settled);
    }

    @Override
    public void setWriteSlowdownFrom(double poolFraction) {
        delegate.setWriteSlowdownFrom(poolFraction);
    }

    @Override
    public void setMemoryFlushThreshold(double poolFraction) {
        delegate.setMemoryFlushThreshold(poolFraction);
    }

    @Override
    public void setRoomHandler(java.util.function.LongConsumer handler) {
        delegate.setRoomHandler(handler);
    }
}
