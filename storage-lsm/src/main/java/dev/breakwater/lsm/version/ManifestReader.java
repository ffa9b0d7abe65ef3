package dev.breakwater.lsm.version;

import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Replays a manifest file ({@link ManifestFormat}) into a {@link Version}, telling an unfinished
 * last append apart from damage.
 *
 * <p>What makes the difference decidable is the writer's order ({@link Manifest}): it writes a
 * record's length, a zero checksum field and the payload in one write, syncs, and only then writes
 * the checksum and syncs again; an edit is acknowledged after the second sync, and bytes after the
 * last complete record are cut off before the next record is written. So an append interrupted by
 * a crash is the last thing in the file and has a checksum field that is zero or torn (a prefix of
 * the right checksum, then zeros), in front of all or part of its payload. Such a tail was never
 * acknowledged and is left out. Anything else that does not parse — a bad checksum, a record cut
 * short that had its checksum, a record followed by more bytes, an impossible length — is damage to
 * synced data, and reading stops with a {@link CorruptManifestException} naming the offset.
 *
 * <p>One case stays ambiguous and is refused: a file that ends 1 to 4 non-zero bytes into a record
 * header (a cut through a committed header, or a write torn inside its first 4 bytes).
 *
 * <p>Reading never changes the file: the dropped tail is cut off by the next append.
 *
 * <p>Thread safety: none; one instance reads one file once.
 */
final class ManifestReader {

    /**
     * What a manifest holds: the version, the records applied, where they end, the file's size, and
     * the bytes of its first record (the snapshot it starts with).
     */
    record Result(Version version, int edits, long validEnd, long fileSize, long snapshotBytes) {
        /** True if an unfinished, never-acknowledged append follows the last record. */
        boolean droppedTail() {
            return validEnd < fileSize;
        }
    }

    private ManifestReader() {
    }

    static Result read(StorageFile f, Path path) throws IOException {
        VersionBuilder builder = new VersionBuilder(Version.empty());
        long fileSize = f.size();
        long pos = 0;
        int edits = 0;
        long snapshotBytes = 0;
        ByteBuffer header = ByteBuffer.allocate(ManifestFormat.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        while (pos < fileSize) {
            long remaining = fileSize - pos;
            if (remaining >= ManifestFormat.RECORD_HEADER) {
                header.clear();
                f.read(pos, header);
                int length = header.getInt(0);
                int crc = header.getInt(4);
                if (length > 0 && length <= ManifestFormat.MAX_PAYLOAD && length <= remaining - ManifestFormat.RECORD_HEADER) {
                    byte[] payload = new byte[length];
                    f.read(pos + ManifestFormat.RECORD_HEADER, ByteBuffer.wrap(payload));
                    if (crc(payload, 0, length) == crc) {
                        apply(builder, payload, path, pos);
                        pos += ManifestFormat.RECORD_HEADER + length;
                        if (edits == 0) {
                            snapshotBytes = pos;
                        }
                        edits++;
                        continue;
                    }
                }
            }
            String damage = unfinishedAppendOrDamage(f, pos, fileSize);
            if (damage == null) {
                break;
            }
            throw new CorruptManifestException(path, pos, damage);
        }
        if (edits == 0) {
            throw new CorruptManifestException(path, 0, "it holds no complete record, but a live manifest always starts "
                    + "with a synced snapshot of the version");
        }
        return new Result(builder.build(), edits, pos, fileSize, snapshotBytes);
    }

    /**
     * Returns null if {@code [pos, fileSize)} is what an interrupted append leaves (see the class
     * comment), else what is wrong with the record at {@code pos}.
     */
    private static String unfinishedAppendOrDamage(StorageFile f, long pos, long fileSize) throws IOException {
        long remaining = fileSize - pos;
        int h = (int) Math.min(remaining, ManifestFormat.RECORD_HEADER);
        byte[] head = new byte[h];
        f.read(pos, ByteBuffer.wrap(head));
        if (h < ManifestFormat.RECORD_HEADER) {
            // Cut inside a header: an unfinished append has not written its checksum field yet.
            boolean checksumUnwritten = h > 4 && allZero(head, 4, h);
            return checksumUnwritten || allZero(head, 0, h) ? null
                    : "the file ends " + remaining + " bytes into a record header";
        }
        ByteBuffer b = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        int length = b.getInt(0);
        if (length <= 0 || length > ManifestFormat.MAX_PAYLOAD) {
            return isZero(f, pos, fileSize) ? null : "record length " + Integer.toUnsignedString(length) + " is impossible";
        }
        long end = pos + ManifestFormat.RECORD_HEADER + length;
        if (end < fileSize) {
            return "the record's checksum does not match, and " + (fileSize - end) + " bytes follow it";
        }
        if (end > fileSize) {
            // Payload incomplete: only an append whose checksum was never written may be cut short.
            return allZero(head, 4, 8) ? null : "the record of " + length + " bytes runs " + (end - fileSize)
                    + " bytes past the end of the file (the file was cut short)";
        }
        byte[] payload = new byte[length];
        f.read(pos + ManifestFormat.RECORD_HEADER, ByteBuffer.wrap(payload));
        byte[] expected = new byte[4];
        ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN).putInt(crc(payload, 0, length));
        int written = 0;
        while (written < 4 && head[4 + written] == expected[written]) {
            written++;
        }
        return allZero(head, 4 + written, 8) ? null : "the record's checksum does not match";
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** True if every byte of {@code [pos, fileSize)} is zero (a file extended without its data). */
    private static boolean isZero(StorageFile f, long pos, long fileSize) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        for (long at = pos; at < fileSize; at += chunk.capacity()) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), fileSize - at));
            f.read(at, chunk);
            if (!allZero(chunk.array(), 0, chunk.position())) {
                return false;
            }
        }
        return true;
    }

    private static void apply(VersionBuilder builder, byte[] payload, Path path, long pos) throws IOException {
        VersionEdit edit;
        try {
            edit = VersionEdit.decode(payload);
        } catch (IllegalArgumentException e) {
            throw new CorruptManifestException(path, pos, "the record has a valid checksum but cannot be decoded: " + e.getMessage());
        }
        try {
            builder.apply(edit);
        } catch (IllegalStateException e) {
            throw new CorruptManifestException(path, pos, "the record does not apply to the version before it: " + e.getMessage());
        }
    }

    private static int crc(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }
}
