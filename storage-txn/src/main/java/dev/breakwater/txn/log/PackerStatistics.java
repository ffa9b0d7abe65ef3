package dev.breakwater.txn.log;

/**
 * Counters of a {@link SegmentPacker} since the log opened.
 *
 * @param passes             trimming passes started (a failed or interrupted one included)
 * @param trimmedSegments    segments replaced by a trimmed packed file
 * @param compressedSegments segments replaced by a compressed, untrimmed packed file
 * @param bytesRead          bytes of segment files read by passes and compression
 * @param bytesWritten       bytes of packed files swapped in (the trim's own write cost)
 * @param recordsDropped     records left out whole because no operation of theirs was needed
 * @param recordsReduced     records rewritten with only some of their operations
 * @param passNanos          time spent in trimming passes
 * @param failures           passes or compressions that failed with an I/O error (the log was left as it was)
 * @param segmentsKeptWhole  segments a pass would have changed but kept whole: too little to drop, and
 *                           nothing a newer rewrite made unsafe to keep
 * @param segmentsForced     segments rewritten below {@code log-trim-min-dead} because they held an
 *                           operation on a key whose newer operation the pass left out as gone
 * @param bytesJudged        payload bytes of the records passes judged (below the keep bound), summed over passes
 * @param deadBytesJudged    of those, the bytes the trimmer would leave out (whether or not their segment was
 *                           rewritten): {@code deadBytesJudged / bytesJudged} is the sealed log's dead share
 *                           as the passes saw it
 */
public record PackerStatistics(long passes, long trimmedSegments, long compressedSegments, long bytesRead,
                               long bytesWritten, long recordsDropped, long recordsReduced, long passNanos,
                               long failures, long segmentsKeptWhole, long segmentsForced,
                               long bytesJudged, long deadBytesJudged) {
}
