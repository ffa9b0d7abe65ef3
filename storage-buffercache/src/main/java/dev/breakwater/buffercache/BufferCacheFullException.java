package dev.breakwater.buffercache;

/**
 * Thrown by {@link BufferCache#pin} when every frame stayed pinned for the whole configured wait, so
 * no page could be loaded. It indicates a cache too small for the concurrency of its users, or a
 * leaked pin; the message gives the cache's size and the number of pinned frames.
 */
public final class BufferCacheFullException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public BufferCacheFullException(String message) {
        super(message);
    }
}
