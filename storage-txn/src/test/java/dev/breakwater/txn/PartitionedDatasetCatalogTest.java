package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The partition count's contract: bad counts are refused naming the count, the count is fixed at
 * creation, the catalog records it with the hash's identity (format version 2 only once a dataset
 * is partitioned, so catalogs without partitions stay readable by older builds), and a catalog
 * naming an unknown hash is refused. Also pins {@link PartitionHash} to its documented values.
 */
class PartitionedDatasetCatalogTest {

    private static final Path DIR = Path.of("/db");

    @Test
    void partitionCountsOutsideOneTo256AreRefusedNamingTheCount() {
        SchemaException zero = assertThrows(SchemaException.class, () -> PartitionedDatasetModelTest.items(0));
        assertTrue(zero.getMessage().contains("partitions = 0"), zero.getMessage());
        SchemaException many = assertThrows(SchemaException.class, () -> PartitionedDatasetModelTest.items(257));
        assertTrue(many.getMessage().contains("partitions = 257") && many.getMessage().contains("256"), many.getMessage());
        assertEquals(256, PartitionedDatasetModelTest.items(256).partitions());
        assertEquals(1, DatasetSpec.builder("x").field("k", dev.breakwater.common.key.FieldType.INT32).primaryKey("k").build().partitions());
    }

    @Test
    void reopeningWithAnotherCountIsRefusedAndTheCatalogRecordsCountAndHash() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (StorageEngine engine = StorageEngine.open(fs, DIR, EngineFixture.smallConfig())) {
            engine.createDataset(PartitionedDatasetModelTest.items(1));
        }
        String plain = read(fs);
        assertTrue(plain.contains("\"formatVersion\" : 1"), plain);
        assertFalse(plain.contains("partition"), "an unpartitioned catalog is written as before: " + plain);
        try (StorageEngine engine = StorageEngine.open(fs, DIR, EngineFixture.smallConfig())) {
            SchemaException e = assertThrows(SchemaException.class,
                    () -> engine.createDatasetIfAbsent(PartitionedDatasetModelTest.items(4)));
            assertTrue(e.getMessage().contains("partitions are 1 in the existing dataset, 4"), e.getMessage());
            engine.dropDataset("items");
            Dataset items = engine.createDataset(PartitionedDatasetModelTest.items(4));
            for (long id = 0; id < 200; id++) {
                items.upsert(Tuple.of(id, (int) (id % 7), "v" + id));
            }
        }
        String partitioned = read(fs);
        assertTrue(partitioned.contains("\"formatVersion\" : 2"), partitioned);
        assertTrue(partitioned.contains("\"partitions\" : 4") && partitioned.contains("\"partitionHash\" : \"" + PartitionHash.ID + "\""),
                partitioned);
        StoredCatalog stored = StoredCatalog.read(fs, DIR);
        StoredCatalog.StoredDataset d = stored.dataset("items");
        assertEquals(4, d.partitions());
        assertEquals(8, d.indexes().size(), "a primary and a by_grp tree per partition");
        assertThrows(SchemaException.class, () -> d.index(DatasetSpec.PRIMARY));
        assertEquals(3, d.index("by_grp", 3).partition());
        try (StorageEngine engine = StorageEngine.open(fs, DIR, EngineFixture.smallConfig())) {
            SchemaException e = assertThrows(SchemaException.class,
                    () -> engine.createDatasetIfAbsent(PartitionedDatasetModelTest.items(8)));
            assertTrue(e.getMessage().contains("partitions are 4 in the existing dataset, 8"), e.getMessage());
            assertEquals(200, count(engine.dataset("items")));
            engine.addIndex("items", new IndexSpec("by_name", List.of("name")));
            assertEquals(200, count(engine.dataset("items").index("by_name")));
        }
        try (StorageEngine engine = StorageEngine.open(fs, DIR, EngineFixture.smallConfig())) {
            assertEquals(200, count(engine.dataset("items").index("by_name")), "the built index survives a reopen");
        }
        write(fs, read(fs).replace(PartitionHash.ID, "some-other-hash/9"));
        IOException e = assertThrows(IOException.class, () -> Catalog.load(fs, DIR));
        assertTrue(e.getMessage().contains("some-other-hash/9") && e.getMessage().contains(PartitionHash.ID), e.getMessage());
        write(fs, partitioned.replace("\"partitions\" : 4", "\"partitions\" : 5"));
        IOException damaged = assertThrows(IOException.class, () -> Catalog.load(fs, DIR));
        assertTrue(damaged.getMessage().contains("5 partitions but the trees of 4"), damaged.getMessage());
    }

    /** The hash is on-disk contract: these values must never change (a change needs a new {@link PartitionHash#ID}). */
    @Test
    void theHashIsStable() {
        assertEquals(0, PartitionHash.partition(new byte[] {1, 2, 3}, 3, 1));
        long empty = PartitionHash.hash(new byte[0], 0, 0);
        long abc = PartitionHash.hash("abc".getBytes(StandardCharsets.US_ASCII), 0, 3);
        assertEquals(fmix(0xcbf29ce484222325L), empty);
        assertEquals(fmix(0xe71fa2190541574bL), abc); // FNV-1a 64 of "abc"
        int[] counts = new int[8];
        for (int i = 0; i < 80_000; i++) {
            byte[] k = {(byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
            counts[PartitionHash.partition(k, 4, 8)]++;
        }
        for (int c : counts) {
            assertTrue(c > 9_000 && c < 11_000, "sequential keys spread evenly: " + java.util.Arrays.toString(counts));
        }
    }

    private static long fmix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    private static long count(Dataset d) {
        return count(d.scan(KeyRange.all()));
    }

    private static long count(Index ix) {
        return count(ix.scan(KeyRange.all()));
    }

    private static long count(Cursor<Tuple> c) {
        long n = 0;
        try (c) {
            while (c.hasNext()) {
                c.next();
                n++;
            }
        }
        return n;
    }

    private static String read(MemFileSystem fs) throws IOException {
        try (StorageFile f = fs.open(DIR.resolve(Catalog.FILE), OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return new String(b.array(), StandardCharsets.UTF_8);
        }
    }

    private static void write(MemFileSystem fs, String text) throws IOException {
        try (StorageFile f = fs.open(DIR.resolve(Catalog.FILE), OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            f.write(0, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
