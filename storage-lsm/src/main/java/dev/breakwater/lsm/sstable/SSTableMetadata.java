package dev.breakwater.lsm.sstable;

import java.util.Arrays;

/**
 * What the footer of an SSTable records (layout in {@link FooterDescriptor}). Returned by
 * {@link SSTableWriter#finish} and {@link SSTableReader#metadata()}.
 *
 * <p>Thread safety: immutable; the key arrays are copied in and out.
 *
 * @param formatVersion   SSTable format version of the file
 * @param pageSize        bytes per page; must equal the buffer cache's page size to read the file
 * @param entryCount      entries, tombstones included
 * @param tombstoneCount  entries that delete their key
 * @param firstKey        smallest key
 * @param lastKey         largest key
 * @param minLsn          smallest LSN of the writes the table holds (as given to finish)
 * @param maxLsn          largest LSN of the writes the table holds (as given to finish)
 * @param rootPage        page the search starts at (a leaf when {@code indexHeight == 0})
 * @param indexHeight     levels of index pages above the leaves
 * @param leafFirstPage   first leaf page (leaves are contiguous and in key order)
 * @param leafPageCount   number of leaf pages
 * @param indexFirstPage  first index page
 * @param indexPageCount  number of index pages
 * @param bloomFirstPage  first Bloom filter page
 * @param bloomPageCount  number of Bloom filter pages (0: no filter, every probe says maybe)
 * @param bloomBlocks     64-byte blocks of the Bloom filter
 * @param bloomHashCount  probes per key, all inside one block
 * @param bloomBitsPerKey bits per key the filter was sized for
 * @param compression     leaf compression
 */
public record SSTableMetadata(int formatVersion, int pageSize, long entryCount, long tombstoneCount,
                              byte[] firstKey, byte[] lastKey, long minLsn, long maxLsn,
                              int rootPage, int indexHeight, int leafFirstPage, int leafPageCount,
                              int indexFirstPage, int indexPageCount, int bloomFirstPage, int bloomPageCount,
                              int bloomBlocks, int bloomHashCount, double bloomBitsPerKey, Compression compression) {

    public SSTableMetadata {
        firstKey = firstKey.clone();
        lastKey = lastKey.clone();
    }

    @Override
    public byte[] firstKey() {
        return firstKey.clone();
    }

    @Override
    public byte[] lastKey() {
        return lastKey.clone();
    }

    /** Pages in the file: leaves, index, Bloom filter and the footer. */
    public int pageCount() {
        return leafPageCount + indexPageCount + bloomPageCount + 1;
    }

    /** Size of the file in bytes. */
    public long fileBytes() {
        return (long) pageCount() * pageSize;
    }

    /** Page number of the footer (the last page). */
    public int footerPage() {
        return pageCount() - 1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SSTableMetadata m && formatVersion == m.formatVersion && pageSize == m.pageSize
                && entryCount == m.entryCount && tombstoneCount == m.tombstoneCount
                && Arrays.equals(firstKey, m.firstKey) && Arrays.equals(lastKey, m.lastKey)
                && minLsn == m.minLsn && maxLsn == m.maxLsn && rootPage == m.rootPage && indexHeight == m.indexHeight
                && leafFirstPage == m.leafFirstPage && leafPageCount == m.leafPageCount
                && indexFirstPage == m.indexFirstPage && indexPageCount == m.indexPageCount
                && bloomFirstPage == m.bloomFirstPage && bloomPageCount == m.bloomPageCount
                && bloomBlocks == m.bloomBlocks && bloomHashCount == m.bloomHashCount
                && Double.compare(bloomBitsPerKey, m.bloomBitsPerKey) == 0 && compression == m.compression;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(entryCount) * 31 + Arrays.hashCode(firstKey) * 17 + Arrays.hashCode(lastKey);
    }

    @Override
    public String toString() {
        return "SSTableMetadata[entries=" + entryCount + ", tombstones=" + tombstoneCount + ", lsn=" + minLsn + ".." + maxLsn
                + ", pages=" + pageCount() + "x" + pageSize + ", leaves=" + leafPageCount + ", index=" + indexPageCount
                + " (height " + indexHeight + ", root " + rootPage + "), bloom=" + bloomPageCount + " pages/" + bloomBlocks
                + " blocks/k=" + bloomHashCount + ", compression=" + compression + "]";
    }
}
