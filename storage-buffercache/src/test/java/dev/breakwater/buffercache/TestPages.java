package dev.breakwater.buffercache;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.memory.OffHeapPage;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.page.PageDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/** Writes files of valid, recognisable pages for buffer-cache tests and checks pinned content. */
final class TestPages {

    static final byte TYPE = 42;

    private TestPages() {
    }

    /** The 8-byte word at {@code index} of the payload of page {@code pageNo} of a file tagged {@code tag}. */
    static long word(long tag, int pageNo, int index) {
        return tag * 1_000_003L ^ ((long) pageNo << 20) ^ index * 0x9E3779B97F4A7C15L;
    }

    /** A complete, sealed page whose payload is the sequence of {@link #word}s. */
    static ByteBuffer page(long tag, int pageNo, int pageSize) {
        ByteBuffer b = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
        int words = PageDescriptor.maxPayload(pageSize) / 8;
        PageDescriptor.writeHeader(b, TYPE, (byte) 0, pageNo, words * 8);
        for (int i = 0; i < words; i++) {
            b.putLong(PageDescriptor.HEADER_LENGTH + i * 8, word(tag, pageNo, i));
        }
        PageChecksum.seal(b, pageSize);
        return b;
    }

    /** Creates {@code path} holding {@code pages} sealed pages and syncs it. */
    static void writeFile(FileSystem fs, Path path, long tag, int pages, int pageSize) throws IOException {
        if (path.getParent() != null) {
            fs.createDirectories(path.getParent());
        }
        try (StorageFile f = fs.open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            for (int p = 0; p < pages; p++) {
                f.write((long) p * pageSize, page(tag, p, pageSize));
            }
            f.sync();
        }
    }

    /** Throws if the pinned page does not hold page {@code pageNo} of the file tagged {@code tag}. */
    static void check(CachedPage page, long tag, int pageNo, OffHeapPage view) {
        view.wrap(page.address(), page.size());
        if (view.getInt(PageDescriptor.PAGE_NUMBER_OFFSET) != pageNo) {
            throw new AssertionError("frame holds page " + view.getInt(PageDescriptor.PAGE_NUMBER_OFFSET) + ", expected " + pageNo);
        }
        int words = PageDescriptor.maxPayload(page.size()) / 8;
        for (int i = 0; i < words; i += 97) {
            long actual = view.getLong(PageDescriptor.HEADER_LENGTH + i * 8);
            if (actual != word(tag, pageNo, i)) {
                throw new AssertionError("page " + pageNo + " word " + i + " is " + actual + ", expected " + word(tag, pageNo, i));
            }
        }
    }
}
