package dev.breakwater.common.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class RealFileSystemDirectIoTest {

    private static final int ALIGN = 4096;

    /** File systems on which Linux is known to honour O_DIRECT. */
    private static final Set<String> DIRECT_CAPABLE = Set.of("ext4", "xfs", "btrfs");

    @TempDir
    Path dir;

    /** An OpenOption FileChannel.open rejects, standing in for a platform without O_DIRECT. */
    private enum UnsupportedOption implements java.nio.file.OpenOption { INSTANCE }

    /** A direct buffer of {@code size} bytes starting on a 4096-byte boundary. */
    static ByteBuffer aligned(int size) {
        int rounded = (size + ALIGN - 1) / ALIGN * ALIGN;
        return ByteBuffer.allocateDirect(rounded + ALIGN).alignedSlice(ALIGN).limit(size);
    }

    static ByteBuffer filled(int size, int seed) {
        ByteBuffer buffer = aligned(size);
        for (int i = 0; i < size; i++) {
            buffer.put(i, (byte) (seed + i * 31));
        }
        return buffer;
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void directRoundTripBypassesPageCache() throws IOException {
        String type = Files.getFileStore(dir).type();
        assumeTrue(DIRECT_CAPABLE.contains(type), "O_DIRECT not expected on " + type);
        RealFileSystem fs = RealFileSystem.create();
        Path path = dir.resolve("pages");
        try (StorageFile file = fs.open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.DIRECT)) {
            assertTrue(file.isDirect(), "O_DIRECT should work on " + type);
            assertEquals(RealFileSystem.DirectIoSupport.SUPPORTED, fs.directIoSupport());
            file.write(0, filled(2 * ALIGN, 1));
            assertEquals(2L * ALIGN, file.append(filled(ALIGN, 2)));
            file.sync();
            assertEquals(3L * ALIGN, file.size());

            ByteBuffer first = aligned(2 * ALIGN);
            file.read(0, first);
            assertEquals(filled(2 * ALIGN, 1).rewind(), first.flip());
            ByteBuffer third = aligned(ALIGN);
            file.read(2L * ALIGN, third);
            assertEquals(filled(ALIGN, 2).rewind(), third.flip());
        }
        try (StorageFile file = fs.open(path, OpenOption.READ)) {
            assertFalse(file.isDirect());
            ByteBuffer viaPageCache = ByteBuffer.allocate(ALIGN);
            file.read(2L * ALIGN, viaPageCache);
            assertEquals(filled(ALIGN, 2).rewind(), viaPageCache.flip());
        }
    }

    @Test
    void misalignedAccessIsRejectedBeforeTheSyscall() throws IOException {
        RealFileSystem fs = RealFileSystem.create();
        Path path = dir.resolve("pages");
        try (StorageFile file = fs.open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.DIRECT)) {
            file.write(0, filled(ALIGN, 0));

            IllegalArgumentException position = assertThrows(IllegalArgumentException.class,
                    () -> file.write(512, filled(ALIGN, 0)));
            assertTrue(position.getMessage().contains("4096"), position.getMessage());
            assertTrue(position.getMessage().contains(path.toString()), position.getMessage());
            assertTrue(position.getMessage().contains("position 512"), position.getMessage());

            IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
                    () -> file.read(0, aligned(100)));
            assertTrue(length.getMessage().contains("length 100"), length.getMessage());

            ByteBuffer offByOne = ByteBuffer.allocateDirect(3 * ALIGN).alignedSlice(ALIGN).position(1).slice()
                    .limit(ALIGN);
            IllegalArgumentException address = assertThrows(IllegalArgumentException.class,
                    () -> file.append(offByOne));
            assertTrue(address.getMessage().contains("buffer address"), address.getMessage());

            assertEquals(ALIGN, file.size(), "rejected writes must not reach the file");
        }
    }

    @Test
    void fallsBackToBufferedIoWhenDirectIoIsUnsupported() throws IOException {
        RealFileSystem fs = new RealFileSystem(true, ALIGN, UnsupportedOption.INSTANCE);
        try (StorageFile file = fs.open(dir.resolve("a"), OpenOption.CREATE, OpenOption.WRITE, OpenOption.DIRECT)) {
            assertFalse(file.isDirect());
            assertEquals(RealFileSystem.DirectIoSupport.UNSUPPORTED, fs.directIoSupport());
            file.append(filled(ALIGN, 7));
            ByteBuffer back = aligned(ALIGN);
            file.read(0, back);
            assertEquals(filled(ALIGN, 7).rewind(), back.flip());
            assertThrows(IllegalArgumentException.class, () -> file.write(1, filled(ALIGN, 0)),
                    "alignment is checked even when falling back, so misaligned code fails everywhere");
        }
        try (StorageFile file = fs.open(dir.resolve("b"), OpenOption.CREATE_NEW, OpenOption.DIRECT)) {
            assertFalse(file.isDirect());
        }
    }

    @Test
    void errorsUnrelatedToDirectIoDoNotDisableIt() {
        RealFileSystem probing = new RealFileSystem(true, ALIGN, UnsupportedOption.INSTANCE);
        assertThrows(NoSuchFileException.class, () -> probing.open(dir.resolve("missing"), OpenOption.DIRECT));
        assertEquals(RealFileSystem.DirectIoSupport.UNKNOWN, probing.directIoSupport());

        RealFileSystem real = RealFileSystem.create();
        assertThrows(NoSuchFileException.class, () -> real.open(dir.resolve("missing"), OpenOption.DIRECT));
        assertEquals(RealFileSystem.DirectIoSupport.UNKNOWN, real.directIoSupport());
    }

    @Test
    void withoutDirectIoStaysBufferedButChecksAlignment() throws IOException {
        RealFileSystem fs = RealFileSystem.withoutDirectIo();
        try (StorageFile file = fs.open(dir.resolve("a"), OpenOption.CREATE, OpenOption.DIRECT)) {
            assertFalse(file.isDirect());
            assertEquals(RealFileSystem.DirectIoSupport.DISABLED, fs.directIoSupport());
            assertThrows(IllegalArgumentException.class, () -> file.append(aligned(10)));
            assertEquals(0, file.append(filled(ALIGN, 3)));
        }
        assertEquals(ALIGN, fs.directIoAlignment());
    }

    @Test
    void directFileCanBeExtendedByTruncate() throws IOException {
        RealFileSystem fs = RealFileSystem.create();
        try (StorageFile file = fs.open(dir.resolve("grow"), OpenOption.CREATE, OpenOption.DIRECT)) {
            file.truncate(2L * ALIGN);
            assertEquals(2L * ALIGN, file.size());
            assertEquals(2L * ALIGN, file.append(filled(ALIGN, 5)));
            ByteBuffer zeros = aligned(ALIGN);
            file.read(ALIGN, zeros);
            assertEquals(aligned(ALIGN), zeros.flip());
        }
    }
}
