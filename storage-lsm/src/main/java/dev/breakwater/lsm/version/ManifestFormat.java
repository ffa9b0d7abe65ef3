package dev.breakwater.lsm.version;

/**
 * The on-disk format of a tree's manifest: the log of {@link VersionEdit}s from which the tree's
 * current version is rebuilt at open.
 *
 * <h2>Files</h2>
 * <ul>
 *   <li>{@code CURRENT}: the name of the live manifest file followed by a newline, replaced
 *       atomically (write {@code CURRENT.tmp}, sync, rename, sync the directory).</li>
 *   <li>{@code MANIFEST-<n>}: a sequence of records. The first record of a manifest is a snapshot
 *       edit that rebuilds the whole version from empty; later records are deltas.</li>
 * </ul>
 *
 * <h2>Record</h2>
 * <pre>
 *  0            4              8
 *  +------------+--------------+-----------------------------+
 *  | length u32 | CRC32C u32   | payload (length bytes)      |
 *  +------------+--------------+-----------------------------+
 * </pre>
 * Little endian. The CRC covers the payload. A record is written in two synced steps: length, a
 * zero CRC field and the payload first, then the CRC (the commit point); the edit counts as
 * installed once the CRC is synced. So a crash during an append leaves, as the last thing in the
 * file, a record whose CRC field is zero or torn (a prefix of the right CRC, then zeros), with all
 * or part of its payload: that tail was never acknowledged, is left out at open, and is cut off by
 * the next append (the file is not changed at open). Anything else that does not parse is damage
 * to synced data — a CRC mismatch, a record with its CRC cut short, bytes after a record that fails
 * its CRC, an impossible length, an undecodable edit, a live manifest without a record — and the
 * tree refuses to open, naming the file and offset. A missing {@code CURRENT} is damage too, unless
 * the directory holds no table and no manifest but an empty {@code MANIFEST-000001} (a creation
 * that did not finish).
 *
 * <h2>Payload (one version edit)</h2>
 * <pre>
 *  i64 lastFlushedLsn (-1: unchanged) | i64 nextFileNumber (-1) | i64 nextRunId (-1) | u32 opCount
 *  opCount x { u8 kind | u32 level | i64 runId | u8 newest
 *              [ADD_TABLE, REMOVE_TABLE only:
 *                i64 fileNumber | i64 size | i64 entries | i64 minLsn | i64 maxLsn
 *                | u32 len | smallest key | u32 len | largest key ] }
 * </pre>
 * Kinds: 0 NEW_RUN, 1 ADD_TABLE, 2 REMOVE_TABLE, 3 INSERT_LEVEL, 4 REMOVE_LEVEL. A trivial move
 * is a REMOVE_TABLE and an ADD_TABLE of the same table (file number) in one edit.
 *
 * <h2>Compaction</h2>
 * Once the file is larger than {@code min(rotateBytes, max(64 KiB, 5 x its first record))}, the
 * next append compacts: a new {@code MANIFEST-<n+1>} holding one snapshot record is written and
 * synced, {@code CURRENT} is switched to it (as above), then the edit is appended to the new file
 * and the old file deleted. No edit goes to a manifest before {@code CURRENT} durably names it, and
 * a manifest is deleted only once {@code CURRENT} durably names another; a manifest not named by
 * {@code CURRENT} is an orphan (an older one, or an interrupted compaction's) and is removed at open.
 * What an open replays is thus bounded by the size of the live version, not by the history.
 */
public final class ManifestFormat {

    /** Bytes of a record header. */
    public static final int RECORD_HEADER = 8;
    /** Largest payload accepted; anything larger is treated as corruption. */
    public static final int MAX_PAYLOAD = 64 << 20;
    public static final String CURRENT = "CURRENT";
    public static final String MANIFEST_PREFIX = "MANIFEST-";

    private ManifestFormat() {
    }

    public static String manifestName(long number) {
        return String.format("%s%06d", MANIFEST_PREFIX, number);
    }
}
