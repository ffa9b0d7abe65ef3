package dev.breakwater.buffercache;

/**
 * What {@link BufferCache#resize} achieved.
 *
 * @param requestedBytes the capacity asked for
 * @param capacityBytes  the capacity reached; differs from the request when the request is not a
 *                       whole number of chunks or pinned frames blocked a shrink past the wait
 * @param complete       true if the capacity is the request rounded to whole chunks
 */
public record ResizeResult(long requestedBytes, long capacityBytes, boolean complete) {
}
