package dev.breakwater.tools;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.page.PageDescriptor;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.sstable.CorruptSSTableException;
import dev.breakwater.lsm.sstable.SSTableFormat;
import dev.breakwater.lsm.sstable.SSTableMetadata;
import dev.breakwater.lsm.sstable.SSTableReader;
import dev.breakwater.lsm.version.TableMeta;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * Checks one SSTable end to end, read-only, and reports every problem with file and page:
 * <ol>
 *   <li>the footer, through {@link SSTableReader#open} (size, magic, metadata CRC, page ranges);</li>
 *   <li>every page: its checksum, version and page number ({@link PageChecksum#verify}), and that
 *       its type is the one the footer's page ranges give it;</li>
 *   <li>every entry, leaf by leaf through the reader's {@link SSTableReader#leafCursor}: keys strictly
 *       increasing within and across leaves, the Bloom filter admitting every key the table holds,
 *       and, when every leaf could be read, the first and last key and the entry and tombstone
 *       counts equal to the footer's (and to the manifest's, if given).</li>
 * </ol>
 * A leaf that fails step 2 is skipped in step 3, which goes on with the next leaf. Leaves are
 * decoded by the reader as the footer's SSTable format version lays them out (the legacy version 1
 * or the dense version 2, docs/formats.md §2.1), so the tool checks tables of either version and
 * knows no leaf layout itself; a version the build does not read is reported as a footer problem.
 *
 * <p>Thread safety: not thread-safe; one per command.
 */
final class SSTableVerifier {

    private static final HexFormat HEX = HexFormat.of();

    private final FileSystem fs;
    private final TableFile tables;
    private final Findings findings;
    private long pagesRead;
    private long entriesRead;

    SSTableVerifier(FileSystem fs, TableFile tables, Findings findings) {
        this.fs = fs;
        this.tables = tables;
        this.findings = findings;
    }

    long pagesRead() {
        return pagesRead;
    }

    long entriesRead() {
        return entriesRead;
    }

    /**
     * Verifies the table at {@code path}; {@code expected} is what the manifest records about it,
     * or null for a table checked on its own. {@code name} names the file in findings.
     */
    void verify(Path path, String name, TableMeta expected) throws IOException {
        long size = fs.size(path);
        if (expected != null && expected.sizeBytes() != size) {
            findings.problem(name, "file has " + size + " bytes but the manifest records " + expected.sizeBytes());
        }
        int pageSize = tables.detectPageSize(path);
        if (pageSize < 0) {
            findings.problem(name + " last page", "no page size from 4 KiB to 1 MiB ends this " + size
                    + "-byte file with a footer page that passes its checksum (truncated, or the footer page is damaged)");
            return;
        }
        SSTableReader reader;
        try {
            reader = tables.open(path, pageSize);
        } catch (CorruptSSTableException | CorruptPageException e) {
            findings.problem(name + " footer", e.getMessage());
            checkPages(path, name, pageSize, null);
            return;
        }
        try {
            SSTableMetadata m = reader.metadata();
            Set<Integer> bad = checkPages(path, name, pageSize, m);
            checkEntries(reader, name, m, expected, bad);
        } finally {
            reader.close();
        }
    }

    /** Step 2: every page's checksum and type. Returns the numbers of the pages that failed. */
    private Set<Integer> checkPages(Path path, String name, int pageSize, SSTableMetadata m) throws IOException {
        Set<Integer> bad = new HashSet<>();
        ByteBuffer page = ByteBuffer.allocate(pageSize);
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            long pages = f.size() / pageSize;
            for (int p = 0; p < pages; p++) {
                page.clear();
                long offset = (long) p * pageSize;
                f.read(offset, page);
                page.clear();
                pagesRead++;
                String where = name + " page " + p + " (offset " + offset + ")";
                try {
                    PageChecksum.verify(page, pageSize, name, p);
                } catch (CorruptPageException e) {
                    findings.problem(where, e.getMessage());
                    bad.add(p);
                    continue;
                }
                if (m != null) {
                    byte expectedType = expectedType(m, p);
                    byte type = PageDescriptor.type(page);
                    if (type != expectedType) {
                        findings.problem(where, String.format("page type 0x%02x, but the footer's page ranges make it 0x%02x",
                                type, expectedType));
                        bad.add(p);
                    }
                }
            }
        }
        return bad;
    }

    private static byte expectedType(SSTableMetadata m, int page) {
        if (page < m.leafFirstPage() + m.leafPageCount()) {
            return SSTableFormat.TYPE_LEAF;
        }
        if (page < m.indexFirstPage() + m.indexPageCount()) {
            return SSTableFormat.TYPE_INDEX;
        }
        if (page < m.bloomFirstPage() + m.bloomPageCount()) {
            return SSTableFormat.TYPE_BLOOM;
        }
        return SSTableFormat.TYPE_FOOTER;
    }

    /**
     * Step 3, leaf by leaf: key order within and across leaves, the Bloom filter admits every key;
     * then counts and key range against the footer and the manifest (only if every leaf was read).
     */
    private void checkEntries(SSTableReader reader, String name, SSTableMetadata m, TableMeta expected, Set<Integer> bad)
            throws IOException {
        byte[] prev = null;
        byte[] first = null;
        long entries = 0;
        long tombstones = 0;
        boolean complete = true;
        int leafEnd = m.leafFirstPage() + m.leafPageCount();
        for (int leaf = m.leafFirstPage(); leaf < leafEnd; leaf++) {
            if (bad.contains(leaf)) {
                complete = false; // reported by step 2; order is checked again from the next good leaf
                continue;
            }
            long offset = (long) leaf * m.pageSize();
            String where = name + " page " + leaf + " (offset " + offset + ")";
            try (EntryCursor c = reader.leafCursor(leaf, IoPurpose.QUERY)) {
                int index = 0;
                while (c.next()) {
                    byte[] key = Arrays.copyOf(c.key(), c.keyLength());
                    if (prev != null && Arrays.compareUnsigned(prev, key) >= 0) {
                        findings.problem(where, "entry " + index + ": key " + HEX.formatHex(key)
                                + " is not greater than the key before it, " + HEX.formatHex(prev));
                    }
                    if (!reader.mayContain(key, key.length, IoPurpose.QUERY)) {
                        findings.problem(where, "entry " + index + ": the Bloom filter excludes key " + HEX.formatHex(key)
                                + ", which the table holds (a lookup would miss it)");
                    }
                    first = first == null ? key : first;
                    prev = key;
                    index++;
                    entries++;
                    tombstones += c.isTombstone() ? 1 : 0;
                }
            } catch (CorruptPageException e) {
                complete = false;
                if (!bad.contains((int) e.pageNumber())) { // a Bloom page step 2 reported is not reported twice
                    findings.problem(name + " page " + e.pageNumber(), e.getMessage());
                }
            }
        }
        entriesRead += entries;
        if (complete) {
            checkTotals(name, m, expected, first, prev, entries, tombstones);
        } else {
            findings.note(name, "entry counts and key range not compared with the footer: damaged pages were skipped");
        }
    }

    private void checkTotals(String name, SSTableMetadata m, TableMeta expected, byte[] first, byte[] last, long entries,
                             long tombstones) {
        if (entries != m.entryCount() || tombstones != m.tombstoneCount()) {
            findings.problem(name, "leaves hold " + entries + " entries (" + tombstones + " tombstones), the footer says "
                    + m.entryCount() + " (" + m.tombstoneCount() + ")");
        }
        if (first != null && (!Arrays.equals(first, m.firstKey()) || !Arrays.equals(last, m.lastKey()))) {
            findings.problem(name, "leaves run from key " + HEX.formatHex(first) + " to " + HEX.formatHex(last)
                    + ", the footer says " + HEX.formatHex(m.firstKey()) + " to " + HEX.formatHex(m.lastKey()));
        }
        if (expected != null) {
            if (expected.entries() != m.entryCount()) {
                findings.problem(name, "the manifest records " + expected.entries() + " entries, the footer " + m.entryCount());
            }
            if (!Arrays.equals(expected.smallest(), m.firstKey()) || !Arrays.equals(expected.largest(), m.lastKey())) {
                findings.problem(name, "the manifest records keys " + HEX.formatHex(expected.smallest()) + " to "
                        + HEX.formatHex(expected.largest()) + ", the footer " + HEX.formatHex(m.firstKey()) + " to "
                        + HEX.formatHex(m.lastKey()));
            }
        }
    }
}
