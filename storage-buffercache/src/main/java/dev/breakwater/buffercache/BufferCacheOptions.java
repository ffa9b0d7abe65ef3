package dev.breakwater.buffercache;

import java.time.Duration;

/**
 * Settings of a {@link BufferCache}.
 *
 * @param pageSize            bytes per page and frame; every file read through the cache uses it
 * @param capacityBytes       initial size of the cache (rounded down to whole chunks, at least one)
 * @param chunkBytes          granularity of allocation: the cache grows and shrinks by chunks of
 *                            frames, each one off-heap arena (at least one page)
 * @param simulatedCacheBytes bytes of pages the ghost list represents (0 disables it)
 * @param ghostStripes        stripes of the ghost list (1 gives an exact global FIFO)
 * @param pinWait             how long {@link BufferCache#pin} waits for a frame when all are pinned,
 *                            and a shrink waits for pinned frames, before giving up
 */
public record BufferCacheOptions(int pageSize, long capacityBytes, long chunkBytes, long simulatedCacheBytes,
                                 int ghostStripes, Duration pinWait) {

    public BufferCacheOptions {
        if (pageSize < 4096 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("buffer cache page size must be a power of two >= 4096, got " + pageSize);
        }
        if (capacityBytes < pageSize) {
            throw new IllegalArgumentException("buffer cache capacity " + capacityBytes + " B is below one page of " + pageSize + " B");
        }
        if (chunkBytes < pageSize) {
            throw new IllegalArgumentException("buffer cache chunk " + chunkBytes + " B is below one page of " + pageSize + " B");
        }
        if (simulatedCacheBytes < 0) {
            throw new IllegalArgumentException("simulated cache size must be >= 0, got " + simulatedCacheBytes);
        }
        if (ghostStripes < 1) {
            throw new IllegalArgumentException("ghost stripes must be >= 1, got " + ghostStripes);
        }
        if (pinWait.isNegative()) {
            throw new IllegalArgumentException("pin wait must be >= 0, got " + pinWait);
        }
    }

    /** Defaults for a cache of {@code capacityBytes}: 1 MiB chunks, 128 MiB simulated, 1 s wait. */
    public static BufferCacheOptions of(int pageSize, long capacityBytes) {
        return new BufferCacheOptions(pageSize, capacityBytes, Math.max(pageSize, 1L << 20), 128L << 20, 16, Duration.ofSeconds(1));
    }

    public BufferCacheOptions withChunkBytes(long bytes) {
        return new BufferCacheOptions(pageSize, capacityBytes, bytes, simulatedCacheBytes, ghostStripes, pinWait);
    }

    public BufferCacheOptions withSimulatedCache(long bytes, int stripes) {
        return new BufferCacheOptions(pageSize, capacityBytes, chunkBytes, bytes, stripes, pinWait);
    }

    public BufferCacheOptions withPinWait(Duration wait) {
        return new BufferCacheOptions(pageSize, capacityBytes, chunkBytes, simulatedCacheBytes, ghostStripes, wait);
    }

    int framesPerChunk() {
        return (int) Math.max(1, chunkBytes / pageSize);
    }
}
