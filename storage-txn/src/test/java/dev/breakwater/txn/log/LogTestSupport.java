package dev.breakwater.txn.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Payloads, replay and file surgery shared by the log tests. */
final class LogTestSupport {

    static final Path DIR = Path.of("/db/log");
    static final int SMALL_SEGMENT = 4096;

    private LogTestSupport() {
    }

    /** A deterministic payload of 0 to 299 bytes for record number {@code i}. */
    static byte[] payload(long i) {
        byte[] b = new byte[(int) ((i * 37) % 300)];
        for (int j = 0; j < b.length; j++) {
            b[j] = (byte) (i * 31 + j);
        }
        return b;
    }

    static LogOptions options(long segmentSize, Durability durability) {
        return LogOptions.of(segmentSize, durability);
    }

    static LogManager open(FileSystem fs, LogOptions options) throws IOException {
        return LogManager.open(fs, DIR, options, new IoStatistics());
    }

    /** One replayed record. */
    record Rec(long lsn, byte[] payload) {
    }

    /** A full replay from {@code fromLsn}, into {@code out}. */
    static ReplayResult replay(FileSystem fs, long fromLsn, List<Rec> out) throws IOException {
        LogReader reader = new LogReader(fs, DIR, LogOptions.DEFAULT_MAX_RECORD_SIZE, new IoStatistics());
        return reader.forEach(fromLsn, (lsn, payload) -> {
            byte[] b = new byte[payload.remaining()];
            payload.get(b);
            out.add(new Rec(lsn, b));
        });
    }

    static List<Rec> replayAll(FileSystem fs) throws IOException {
        List<Rec> out = new ArrayList<>();
        replay(fs, 0, out);
        return out;
    }

    static void assertRecord(Rec rec, long lsn, byte[] payload) {
        assertEquals(lsn, rec.lsn(), "LSN");
        assertArrayEquals(payload, rec.payload(), "payload of the record at LSN " + lsn);
    }

    /** Path of the newest segment. */
    static Path lastSegment(FileSystem fs) throws IOException {
        long[] firstLsns = SegmentFiles.list(fs, DIR);
        return SegmentFiles.path(DIR, firstLsns[firstLsns.length - 1]);
    }

    static void truncate(FileSystem fs, Path path, long size) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            f.truncate(size);
            f.sync();
        }
    }

    static void flipByte(FileSystem fs, Path path, long offset) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            f.read(offset, b);
            b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
            f.write(offset, b);
            f.sync();
        }
    }

    /** Every file of the log directory with its bytes, to check that a refused open changed nothing. */
    static Map<String, byte[]> snapshot(FileSystem fs) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        for (String name : fs.list(DIR)) {
            Path path = DIR.resolve(name);
            try (StorageFile f = fs.open(path, OpenOption.READ)) {
                ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(f.size()));
                f.read(0, b);
                files.put(name, b.array());
            }
        }
        return files;
    }

    static void assertSameFiles(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet(), "the log directory holds the same files");
        for (var e : expected.entrySet()) {
            assertArrayEquals(e.getValue(), actual.get(e.getKey()), e.getKey() + " is byte-identical");
        }
    }

    static void appendBytes(FileSystem fs, Path path, ByteBuffer bytes) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            f.append(bytes);
            f.sync();
        }
    }
}
