package dev.breakwater.txn;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.txn.log.LogReader;
import dev.breakwater.txn.log.LogRecordFormat;
import dev.breakwater.txn.log.SegmentFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the transaction log decoders as recovery uses them: segment files read by
 * {@link LogReader} with every payload decoded by {@link CommitRecordFormat}, and commit-record
 * payloads alone. Damage must end in an {@link IOException} ({@code LogCorruptedException}, or a
 * torn tail that ends replay), a malformed commit record in an {@link IllegalArgumentException}
 * (recovery reports it as an {@code IOException}); nothing else, no error, no hang.
 *
 * <p>{@code segments} input: byte 0 bit 0 = rewrite each record's LSN field to its position and its
 * CRC to match (so the fuzzer reaches the payload decoder); bit 1 = split the bytes after the first
 * record into a second segment. Regression inputs: {@code src/test/resources/.../LogFuzzTestInputs/};
 * long runs: docs/testing.md.
 */
class LogFuzzTest {

    private static final Path DIR = Path.of("/db/log");
    private static final int MAX_RECORD = 1 << 20;

    @FuzzTest(maxDuration = "2m")
    void segments(byte[] data) throws IOException {
        if (data.length < 1) {
            return;
        }
        byte[] log = Arrays.copyOfRange(data, 1, data.length);
        int firstEnd = (data[0] & 1) != 0 ? fixRecords(log) : firstRecordEnd(log);
        MemFileSystem fs = new MemFileSystem();
        fs.createDirectories(DIR);
        if ((data[0] & 2) != 0 && firstEnd > 0 && firstEnd < log.length) {
            write(fs, SegmentFiles.path(DIR, 0), Arrays.copyOfRange(log, 0, firstEnd));
            write(fs, SegmentFiles.path(DIR, firstEnd), Arrays.copyOfRange(log, firstEnd, log.length));
        } else {
            write(fs, SegmentFiles.path(DIR, 0), log);
        }
        try {
            new LogReader(fs, DIR, MAX_RECORD, new IoStatistics()).forEach(0, (lsn, payload) -> {
                try {
                    CommitRecordFormat.decode(payload);
                } catch (IllegalArgumentException e) {
                    throw new IOException("not a commit record at LSN " + lsn, e);
                }
            });
        } catch (IOException expected) {
            // corruption, or a record that passed its checksum but does not decode
        }
    }

    @FuzzTest(maxDuration = "2m")
    void commitRecord(byte[] data) {
        try {
            CommitRecordFormat.decode(ByteBuffer.wrap(data));
        } catch (IllegalArgumentException expected) {
            // malformed
        }
    }

    /** Rewrites LSNs and CRCs of the records that fit; returns the end of the first record (0 if none). */
    private static int fixRecords(byte[] log) {
        ByteBuffer b = ByteBuffer.wrap(log).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        int pos = 0;
        int firstEnd = 0;
        while (pos + LogRecordFormat.HEADER_LENGTH <= log.length) {
            long length = LogRecordFormat.payloadLength(b, pos);
            if (length > log.length - pos - LogRecordFormat.HEADER_LENGTH) {
                break;
            }
            ByteBuffer payload = ByteBuffer.wrap(log, pos + LogRecordFormat.HEADER_LENGTH, (int) length);
            LogRecordFormat.writeHeader(b, pos, (int) length, LogRecordFormat.checksum(crc, payload, pos), pos);
            pos += LogRecordFormat.HEADER_LENGTH + (int) length;
            firstEnd = firstEnd == 0 ? pos : firstEnd;
        }
        return firstEnd;
    }

    private static int firstRecordEnd(byte[] log) {
        if (log.length < LogRecordFormat.HEADER_LENGTH) {
            return 0;
        }
        long length = LogRecordFormat.payloadLength(ByteBuffer.wrap(log), 0);
        return length <= log.length - LogRecordFormat.HEADER_LENGTH ? (int) (LogRecordFormat.HEADER_LENGTH + length) : 0;
    }

    private static void write(MemFileSystem fs, Path path, byte[] bytes) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            f.write(0, ByteBuffer.wrap(bytes));
        }
    }

    /** A valid log: three commit records, the way the engine writes them. */
    static byte[] validLog() {
        List<byte[]> payloads = List.of(
                CommitRecordFormat.encode(List.of(new TreeOp(1, false, new byte[] {1, 2}, new byte[] {3}))),
                CommitRecordFormat.encode(List.of(new TreeOp(1, false, new byte[] {5}, new byte[0]),
                        new TreeOp(2, true, new byte[] {5, 0, 0, 1}, new byte[0]))),
                CommitRecordFormat.encode(List.of()));
        int size = payloads.stream().mapToInt(p -> p.length + LogRecordFormat.HEADER_LENGTH).sum();
        byte[] log = new byte[size];
        int pos = 0;
        for (byte[] p : payloads) {
            System.arraycopy(p, 0, log, pos + LogRecordFormat.HEADER_LENGTH, p.length);
            ByteBuffer le = ByteBuffer.wrap(log).order(ByteOrder.LITTLE_ENDIAN);
            LogRecordFormat.writeHeader(le, pos, p.length, LogRecordFormat.checksum(new CRC32C(), ByteBuffer.wrap(p), pos), pos);
            pos += LogRecordFormat.HEADER_LENGTH + p.length;
        }
        return log;
    }

    /** Regenerates the seed inputs when run with {@code -Dbreakwater.fuzz.writeSeeds=true}. */
    @Test
    void writeSeeds() throws IOException {
        if (!Boolean.getBoolean("breakwater.fuzz.writeSeeds")) {
            return;
        }
        Path dir = Path.of("src/test/resources/dev/breakwater/txn/LogFuzzTestInputs");
        byte[] log = validLog();
        Files.createDirectories(dir.resolve("segments"));
        Files.createDirectories(dir.resolve("commitRecord"));
        for (int flags = 0; flags < 4; flags++) {
            byte[] input = new byte[log.length + 1];
            input[0] = (byte) flags;
            System.arraycopy(log, 0, input, 1, log.length);
            Files.write(dir.resolve("segments/valid-" + flags), input);
        }
        Files.write(dir.resolve("commitRecord/valid"), CommitRecordFormat.encode(List.of(
                new TreeOp(7, false, new byte[] {1, 2, 3}, new byte[] {4, 5}), new TreeOp(8, true, new byte[] {9}, new byte[0]))));
    }
}
