package dev.breakwater.txn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The checkpoint file {@code checkpoint.json} (docs/formats.md §6): where log replay may start, and
 * each tree's durable LSN when it was written (for operators). One header line, then a JSON body:
 *
 * <pre>
 * breakwater-checkpoint 1 length=&lt;body bytes&gt; crc32c=&lt;8 hex digits&gt;\n
 * { "logStartLsn" : ..., "logEndLsn" : ..., "treeDurableLsn" : { "&lt;tree id&gt;" : ... }, "writtenAtMillis" : ... }
 * </pre>
 *
 * <p>The CRC32C covers the body bytes. A file that fails any check (header, length, checksum, JSON,
 * a missing or negative {@code logStartLsn}, {@code logStartLsn > logEndLsn}) is damage: replay must
 * not start at a number read from it, since a start too high silently skips committed records. A
 * body without the header line (written before the header existed) is read as JSON with the same
 * field checks. The file is replaced atomically (write a temporary file, fsync, rename, fsync the
 * directory), so a crash leaves the old or the new checkpoint, never a mix.
 *
 * <p>Thread safety: stateless; safe. Writers must not run concurrently (the engine monitor is the
 * only writer, and close runs after it stopped).
 */
final class CheckpointFile {

    static final String NAME = "checkpoint.json";
    static final String MAGIC = "breakwater-checkpoint";
    static final int VERSION = 1;

    private CheckpointFile() {
    }

    /**
     * What a checkpoint says.
     *
     * @param logStartLsn replay may start here: every record below it is durable in every tree it touched
     * @param logEndLsn   the log was durable (fsynced) up to here when the checkpoint was written, so a
     *                    recovered log must reach at least this far; only trusted if {@code checksummed}
     * @param checksummed the file had the checksummed header (files from before it recorded the
     *                    appended, not the durable, end as {@code logEndLsn})
     */
    record Contents(long logStartLsn, long logEndLsn, boolean checksummed) {
    }

    /**
     * Atomically replaces the checkpoint in {@code dir}. Requires: every record below {@code
     * logStartLsn} is durable in every tree it touched, the log is fsynced up to {@code logEndLsn},
     * and {@code logStartLsn <= logEndLsn}.
     */
    static void write(FileSystem fs, Path dir, long logStartLsn, long logEndLsn, Map<Long, Long> treeDurableLsn)
            throws IOException {
        Map<String, Object> cp = new LinkedHashMap<>();
        cp.put("logStartLsn", logStartLsn);
        cp.put("logEndLsn", logEndLsn);
        Map<String, Long> durable = new LinkedHashMap<>();
        treeDurableLsn.forEach((tree, lsn) -> durable.put(String.valueOf(tree), lsn));
        cp.put("treeDurableLsn", durable);
        cp.put("writtenAtMillis", System.currentTimeMillis());
        byte[] body = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(cp);
        CRC32C crc = new CRC32C();
        crc.update(body);
        byte[] header = (header(body.length, crc.getValue()) + "\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuffer bytes = ByteBuffer.allocate(header.length + body.length).put(header).put(body).flip();
        Path tmp = dir.resolve(NAME + ".tmp");
        try (StorageFile f = fs.open(tmp, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            f.write(0, bytes);
            f.sync();
        }
        fs.rename(tmp, dir.resolve(NAME));
        fs.syncDirectory(dir);
    }

    /**
     * Reads the checkpoint in {@code dir}; null if there is none.
     *
     * @throws CheckpointCorruptedException if the file is damaged
     */
    static Contents read(FileSystem fs, Path dir) throws IOException {
        Path path = dir.resolve(NAME);
        if (!fs.exists(path)) {
            return null;
        }
        byte[] bytes;
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            long size = f.size();
            if (size > 64L << 20) {
                throw new CheckpointCorruptedException(path, "file of " + size + " bytes is far larger than a checkpoint");
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            f.read(0, buf);
            bytes = buf.array();
        }
        return parse(path, bytes);
    }

    /** Parses checkpoint file bytes; {@code path} is for messages. */
    static Contents parse(Path path, byte[] bytes) throws CheckpointCorruptedException {
        boolean legacy = bytes.length > 0 && bytes[0] == '{';
        byte[] body = legacy ? bytes : checkedBody(path, bytes);
        JsonNode node;
        try {
            node = new ObjectMapper().readTree(body);
        } catch (IOException e) {
            throw new CheckpointCorruptedException(path, "body is not valid JSON: " + e.getMessage());
        }
        long start = requireLsn(path, node, "logStartLsn");
        long end = requireLsn(path, node, "logEndLsn");
        if (start > end) {
            throw new CheckpointCorruptedException(path, "logStartLsn " + start + " is above logEndLsn " + end);
        }
        return new Contents(start, end, !legacy);
    }

    private static byte[] checkedBody(Path path, byte[] bytes) throws CheckpointCorruptedException {
        int newline = -1;
        for (int i = 0; i < Math.min(bytes.length, 200); i++) {
            if (bytes[i] == '\n') {
                newline = i;
                break;
            }
        }
        if (newline < 0) {
            throw new CheckpointCorruptedException(path, "no header line");
        }
        String header = new String(bytes, 0, newline, StandardCharsets.US_ASCII);
        String[] parts = header.split(" ");
        if (parts.length != 4 || !parts[0].equals(MAGIC) || !parts[2].startsWith("length=")
                || !parts[3].startsWith("crc32c=")) {
            throw new CheckpointCorruptedException(path, "bad header line '" + header + "'");
        }
        if (!parts[1].equals(String.valueOf(VERSION))) {
            throw new CheckpointCorruptedException(path, "unknown version " + parts[1] + " (this build reads " + VERSION
                    + ")");
        }
        long length;
        long stored;
        try {
            length = Long.parseLong(parts[2].substring("length=".length()));
            stored = Long.parseLong(parts[3].substring("crc32c=".length()), 16);
        } catch (NumberFormatException e) {
            throw new CheckpointCorruptedException(path, "bad header line '" + header + "'");
        }
        if (!header.equals(header(length, stored))) {
            throw new CheckpointCorruptedException(path, "bad header line '" + header + "'");
        }
        long actualLength = bytes.length - newline - 1L;
        if (length != actualLength) {
            throw new CheckpointCorruptedException(path, "header says the body has " + length + " bytes but "
                    + actualLength + " follow it");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, newline + 1, (int) length);
        if (crc.getValue() != stored) {
            throw new CheckpointCorruptedException(path, String.format("CRC32C mismatch: header says %08x, body gives %08x",
                    stored, crc.getValue()));
        }
        byte[] body = new byte[(int) length];
        System.arraycopy(bytes, newline + 1, body, 0, body.length);
        return body;
    }

    /** The header line (without its newline) for a body of {@code length} bytes with this CRC32C. */
    private static String header(long length, long crc32c) {
        return String.format("%s %d length=%d crc32c=%08x", MAGIC, VERSION, length, crc32c);
    }

    private static long requireLsn(Path path, JsonNode node, String field) throws CheckpointCorruptedException {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
            throw new CheckpointCorruptedException(path, "field " + field + " is missing or not an LSN: " + value);
        }
        return value.asLong();
    }
}
