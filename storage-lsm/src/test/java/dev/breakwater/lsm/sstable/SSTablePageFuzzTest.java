package dev.breakwater.lsm.sstable;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.breakwater.common.page.PageDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the SSTable page decoders — leaf (plain and LZ4), index, Bloom and footer pages — through
 * {@link SSTableReader} ({@link SSTableFuzzTarget} says how). A page that passes its checksum but
 * is malformed must give {@code CorruptPageException} / {@code CorruptSSTableException}, never an
 * unchecked exception, an error, a hang or a read outside the page.
 *
 * <p>Without {@code JAZZER_FUZZ} each method runs its committed inputs (valid pages of the base
 * tables, plus any past findings) under {@code src/test/resources/.../SSTablePageFuzzTestInputs/}.
 * Long runs: docs/testing.md.
 */
class SSTablePageFuzzTest {

    private static final SSTableFuzzTarget TARGET = new SSTableFuzzTarget();

    @FuzzTest(maxDuration = "2m")
    void leafPage(byte[] data) throws IOException {
        try {
            TARGET.run(data, m -> m.leafFirstPage() + m.leafPageCount() / 2);
        } catch (IOException expected) {
            // a clean refusal
        }
    }

    @FuzzTest(maxDuration = "2m")
    void indexPage(byte[] data) throws IOException {
        try {
            TARGET.run(data, SSTableMetadata::rootPage);
        } catch (IOException expected) {
            // a clean refusal
        }
    }

    @FuzzTest(maxDuration = "2m")
    void bloomPage(byte[] data) throws IOException {
        try {
            TARGET.run(data, SSTableMetadata::bloomFirstPage);
        } catch (IOException expected) {
            // a clean refusal
        }
    }

    @FuzzTest(maxDuration = "2m")
    void footerPage(byte[] data) throws IOException {
        try {
            TARGET.run(withFooterCrc(data), SSTableMetadata::footerPage);
        } catch (IOException expected) {
            // a clean refusal
        }
    }

    /**
     * With bit 1 of byte 0 set, rewrites the footer's metadata CRC to match the fuzzed fields, so
     * the fuzzer also reaches the checks behind the CRC.
     */
    private static byte[] withFooterCrc(byte[] data) {
        if (data.length < 1 || (data[0] & 2) == 0) {
            return data;
        }
        int skip = PageDescriptor.FLAGS_OFFSET - 1; // input index i holds page byte i + skip
        byte[] in = Arrays.copyOf(data, SSTableFuzzTarget.PAGE - skip);
        ByteBuffer b = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
        long crcAt = FooterDescriptor.KEYS_OFFSET + (long) b.getInt(FooterDescriptor.FIRST_KEY_LENGTH_OFFSET - skip)
                + b.getInt(FooterDescriptor.LAST_KEY_LENGTH_OFFSET - skip);
        if (crcAt < FooterDescriptor.KEYS_OFFSET || crcAt + 4 > SSTableFuzzTarget.PAGE) {
            return in;
        }
        CRC32C crc = new CRC32C();
        crc.update(in, PageDescriptor.HEADER_LENGTH - skip, (int) crcAt - PageDescriptor.HEADER_LENGTH);
        b.putInt((int) crcAt - skip, (int) crc.getValue());
        return in;
    }

    /**
     * Regenerates the seed inputs (valid pages of both base tables) under src/test/resources when
     * run with {@code -Dbreakwater.fuzz.writeSeeds=true}; otherwise does nothing.
     */
    @Test
    void writeSeeds() throws IOException {
        if (!Boolean.getBoolean("breakwater.fuzz.writeSeeds")) {
            return;
        }
        Path dir = Path.of("src/test/resources/dev/breakwater/lsm/sstable/SSTablePageFuzzTestInputs");
        for (boolean lz4 : new boolean[] {false, true}) {
            SSTableMetadata m = TARGET.meta(lz4);
            String t = lz4 ? "lz4" : "plain";
            write(dir.resolve("leafPage"), "valid-" + t, TARGET.seed(lz4, m.leafFirstPage() + m.leafPageCount() / 2));
            write(dir.resolve("indexPage"), "valid-" + t, TARGET.seed(lz4, m.rootPage()));
            write(dir.resolve("bloomPage"), "valid-" + t, TARGET.seed(lz4, m.bloomFirstPage()));
            write(dir.resolve("footerPage"), "valid-" + t, TARGET.seed(lz4, m.footerPage()));
        }
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), bytes);
    }
}
