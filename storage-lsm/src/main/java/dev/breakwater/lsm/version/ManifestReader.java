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
 * record's payload, syncs it, and only then writes the 8-byte header and syncs again; an edit is
 * acknowledged after the second sync. So an append interrupted by a crash leaves, after the last
 * complete record, a header that is all zeros (never written) or a prefix of the right header
 * followed by zeros (torn), in front of whatever of the payload reached the disk. Such a tail was
 * never acknowledged and is dropped. Anything else that does not parse — a bad checksum, a header
 * whose length runs past the end of the file (the file was cut), garbage in the middle — is damage
 * to synced data, and reading stops with a {@link CorruptManifestException} naming the offset.
 *
 * <p>Reading never changes the file: the dropped tail is cut off by the next append.
 *
 * <p>Thread safety: none; one instance reads one file once.
 */
final class ManifestReader {

    /** What a manifest holds: the version, the records applied, where they end, and the file's size. */
    record Result(Version version, int edits, long validEnd, long fileSize) {
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
        ByteBuffer header = ByteBuffer.allocate(ManifestFormat.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        while (pos < fileSize) {
            long remaining = fileSize - pos;
            String problem;
            if (remaining < ManifestFormat.RECORD_HEADER) {
                problem = "the file ends " + remaining + " bytes into a record header";
            } else {
                header.clear();
                f.read(pos, header);
                int length = header.getInt(0);
                int crc = header.getInt(4);
                if (length == 0) {
                    // Never written (a version edit is never empty), and CRC32C of nothing is 0,
                    // so a zero header would otherwise pass as a record.
                    problem = "a record header of length 0";
                } else if (length < 0 || length > ManifestFormat.MAX_PAYLOAD) {
                    problem = "record length " + Integer.toUnsignedString(length) + " is out of range";
                } else if (length > remaining - ManifestFormat.RECORD_HEADER) {
                    problem = "the record of " + length + " bytes runs " + (length - (remaining - ManifestFormat.RECORD_HEADER))
                            + " bytes past the end of the file (the file was cut short)";
                } else {
                    byte[] payload = new byte[length];
                    f.read(pos + ManifestFormat.RECORD_HEADER, ByteBuffer.wrap(payload));
                    if (crc(payload, 0, length) == crc) {
                        apply(builder, payload, path, pos);
                        pos += ManifestFormat.RECORD_HEADER + length;
                        edits++;
                        continue;
                    }
                    long after = remaining - ManifestFormat.RECORD_HEADER - length;
                    problem = "the record's checksum does not match" + (after > 0 ? " (" + after + " bytes follow it)" : "");
                }
            }
            if (isUnfinishedAppend(f, pos, fileSize)) {
                break;
            }
            throw new CorruptManifestException(path, pos, problem);
        }
        if (edits == 0) {
            throw new CorruptManifestException(path, 0, "it holds no complete record, but a live manifest always starts "
                    + "with a synced snapshot of the version");
        }
        return new Result(builder.build(), edits, pos, fileSize);
    }

    /**
     * True if {@code [pos, fileSize)} is what an interrupted append leaves: a header never written
     * (zeros) or torn (a prefix of the header that the payload after it calls for, then zeros).
     */
    private static boolean isUnfinishedAppend(StorageFile f, long pos, long fileSize) throws IOException {
        long tail = fileSize - pos;
        if (tail > ManifestFormat.RECORD_HEADER + (long) ManifestFormat.MAX_PAYLOAD) {
            return false;
        }
        byte[] bytes = new byte[(int) tail];
        f.read(pos, ByteBuffer.wrap(bytes));
        int h = (int) Math.min(tail, ManifestFormat.RECORD_HEADER);
        byte[] expected = new byte[ManifestFormat.RECORD_HEADER];
        if (tail >= ManifestFormat.RECORD_HEADER) {
            int length = (int) (tail - ManifestFormat.RECORD_HEADER);
            ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN).putInt(length)
                    .putInt(crc(bytes, ManifestFormat.RECORD_HEADER, length));
        }
        // The header bytes must be the written prefix of the expected header, then zeros. (With
        // fewer than 8 bytes there is no payload, so only zeros qualify.)
        int i = 0;
        while (i < h && tail >= ManifestFormat.RECORD_HEADER && bytes[i] == expected[i]) {
            i++;
        }
        if (i == ManifestFormat.RECORD_HEADER) {
            return false; // a complete header: the record was committed, so the damage is real
        }
        for (int j = i; j < h; j++) {
            if (bytes[j] != 0) {
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
