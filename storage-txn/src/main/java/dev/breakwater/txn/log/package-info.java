/**
 * The transaction log (DESIGN.md §5; format in docs/formats.md, "Transaction log"): fixed-size
 * segment files of checksummed records addressed by LSN (byte position in the log).
 *
 * <ul>
 *   <li>{@link dev.breakwater.txn.log.LogManager} – one per engine: append, group commit through a
 *       flusher thread, SYNC/ASYNC durability, failure state, truncation.</li>
 *   <li>{@link dev.breakwater.txn.log.LogReader} – replay for recovery; a torn tail ends it cleanly,
 *       other damage is a {@link dev.breakwater.txn.log.LogCorruptedException}
 *       ({@code TornTailRule} tells them apart); {@code scanSegment} is a read-only check of one
 *       segment for inspection tools.</li>
 *   <li>{@link dev.breakwater.txn.log.LogRecordFormat}, {@link dev.breakwater.txn.log.SegmentFiles}
 *       – the record layout and segment naming.</li>
 * </ul>
 */
package dev.breakwater.txn.log;
