package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The checkpoint file: round trip, and every kind of damage is an error rather than a wrong start LSN. */
class CheckpointFileTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/db");
    private final Path file = dir.resolve(CheckpointFile.NAME);

    private byte[] written() throws IOException {
        fs.createDirectories(dir);
        CheckpointFile.write(fs, dir, 123_456, 200_000, Map.of(1L, 99_999L, 2L, -1L));
        try (StorageFile f = fs.open(file, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return b.array();
        }
    }

    @Test
    void roundTrip() throws IOException {
        assertNull(CheckpointFile.read(fs, dir), "no checkpoint yet");
        written();
        CheckpointFile.Contents c = CheckpointFile.read(fs, dir);
        assertEquals(new CheckpointFile.Contents(123_456, 200_000, true), c);
        assertFalse(fs.exists(dir.resolve(CheckpointFile.NAME + ".tmp")));
    }

    @Test
    void everySingleBitFlipIsDetected() throws IOException {
        byte[] good = written();
        for (int i = 0; i < good.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] bad = good.clone();
                bad[i] ^= (byte) (1 << bit);
                int at = i;
                CheckpointCorruptedException e = assertThrows(CheckpointCorruptedException.class,
                        () -> CheckpointFile.parse(file, bad), "flip at byte " + at);
                assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            }
        }
    }

    @Test
    void truncationAndGarbageAreDetected() throws IOException {
        byte[] good = written();
        for (int n = 0; n < good.length; n++) {
            byte[] cut = java.util.Arrays.copyOf(good, n);
            assertThrows(CheckpointCorruptedException.class, () -> CheckpointFile.parse(file, cut), "cut at " + n);
        }
        byte[] garbage = new byte[300];
        new Random(3).nextBytes(garbage);
        assertThrows(CheckpointCorruptedException.class, () -> CheckpointFile.parse(file, garbage));
    }

    @Test
    void aFileWithoutTheHeaderIsReadWithFieldChecksButNotTrustedForTheEnd() throws IOException {
        byte[] legacy = "{\"logStartLsn\":10,\"logEndLsn\":20,\"treeDurableLsn\":{}}".getBytes(StandardCharsets.UTF_8);
        assertEquals(new CheckpointFile.Contents(10, 20, false), CheckpointFile.parse(file, legacy));
        for (String bad : new String[] {"{\"logStartLsn\":30,\"logEndLsn\":20}", "{\"logEndLsn\":20}",
                "{\"logStartLsn\":\"x\",\"logEndLsn\":20}", "{\"logStartLsn\":-1,\"logEndLsn\":20}", "{\"logStart"}) {
            assertThrows(CheckpointCorruptedException.class,
                    () -> CheckpointFile.parse(file, bad.getBytes(StandardCharsets.UTF_8)), bad);
        }
    }
}
