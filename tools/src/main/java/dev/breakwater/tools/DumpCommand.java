package dev.breakwater.tools;

import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.key.KeyRanges;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.cursor.MergingCursor;
import dev.breakwater.lsm.sstable.SSTableReader;
import dev.breakwater.lsm.tree.TableFiles;
import dev.breakwater.lsm.version.Manifest;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StoredCatalog;
import dev.breakwater.txn.StoredCatalog.StoredDataset;
import dev.breakwater.txn.StoredCatalog.StoredIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code breakwater dump}: the records of a dataset's index as the SSTables hold them (newest version
 * of each key, deletions applied: the engine's merging cursor over the tree's current version), or
 * every entry of one SSTable file (tombstones included), as text or JSON lines, within a key range.
 * Keys and records are decoded with the catalog's schema; a lone SSTable outside a data directory
 * is printed in hex. Commits still only in the log (after a crash) are not in SSTables: a warning
 * on stderr says when the log holds any.
 *
 * <p>Thread safety: one run per instance.
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Print a dataset's records (DIR --dataset NAME) or an SSTable's entries (FILE.sst), as text or JSON lines.",
                "Key bounds are comma-separated key field values (a prefix of the key is allowed), both inclusive."})
final class DumpCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR|FILE.sst", description = "A data directory (with --dataset) or one SSTable file.")
    Path target;
    @Option(names = "--dataset", paramLabel = "NAME", description = "The dataset to print (with DIR).")
    String dataset;
    @Option(names = "--index", paramLabel = "NAME", description = "A secondary index to print instead of the records. Default: primary.")
    String index = DatasetSpec.PRIMARY;
    @Option(names = "--from", paramLabel = "KEY", description = "Lowest key, inclusive (e.g. 1,2 or 1,2,BAR). Hex bytes for an SSTable without a catalog.")
    String from;
    @Option(names = "--to", paramLabel = "KEY", description = "Highest key, inclusive; a prefix includes every key that starts with it.")
    String to;
    @Option(names = "--partition", paramLabel = "K", description = "For a hash-partitioned dataset: the partition to print "
            + "(each has its own trees, 0 to N-1). Required there, refused elsewhere but 0.")
    Integer partition;
    @Option(names = "--json", description = "One JSON object per line instead of text.")
    boolean json;
    @Option(names = "--limit", paramLabel = "N", description = "Print at most N entries. Default: all.")
    long limit = Long.MAX_VALUE;

    @Spec
    CommandSpec spec;

    @Override
    @SuppressWarnings("try") // the lock check is held, unused, for the duration of the body
    public Integer call() throws IOException {
        if (Files.isRegularFile(target)) {
            if (dataset != null) {
                throw new ParameterException(spec.commandLine(), "--dataset goes with a data directory, not with an SSTable file");
            }
            return dumpTable();
        }
        if (dataset == null) {
            throw new ParameterException(spec.commandLine(), "name the dataset to dump: --dataset NAME (or give one FILE.sst)");
        }
        try (EngineLockCheck ignored = EngineLockCheck.acquire(target)) {
            DataDirectory data = DataDirectory.open(target);
            StoredDataset d = data.catalog().dataset(dataset);
            if (partition == null && d.partitions() > 1) {
                throw new ParameterException(spec.commandLine(), "dataset " + dataset + " has " + d.partitions()
                        + " hash partitions, each with its own trees: name one with --partition K (0 to " + (d.partitions() - 1) + ")");
            }
            StoredIndex ix = d.index(index, partition == null ? 0 : partition);
            return dumpIndex(data, d, ix);
        }
    }

    private int dumpIndex(DataDirectory data, StoredDataset d, StoredIndex ix) throws IOException {
        KeyRange range = new KeyRange(from == null ? null : KeyArgument.parse(from, ix, d.spec()), true,
                to == null ? null : KeyArgument.parse(to, ix, d.spec()), true, false);
        byte[][] bytes = ix.byteRange(range);
        Manifest.Replayed m = data.manifest(ix.directory());
        warnIfLogHoldsMore(data, m.version());
        List<SSTableReader> readers = new ArrayList<>();
        List<EntryCursor> cursors = new ArrayList<>();
        try (TableFile tables = new TableFile(data.fs())) {
            try {
                Version v = m.version();
                for (int level = 0; level < v.levelCount(); level++) {
                    for (Run run : v.level(level)) {
                        for (TableMeta t : run.tables()) {
                            Path p = TableFiles.path(ix.directory(), t.fileNumber());
                            SSTableReader r = tables.open(p, pageSize(tables, p));
                            readers.add(r);
                            cursors.add(r.cursor(bytes[0], bytes[0] == null ? 0 : bytes[0].length, IoPurpose.QUERY));
                        }
                    }
                }
                // Sources newest first: L0 runs newest first, then L1.. in order (Version's shadowing order).
                try (EntryCursor c = new MergingCursor(cursors, true)) {
                    print(c, bytes[1], new EntryPrinter(spec.commandLine().getOut(), ix, d.spec(), json));
                }
            } finally {
                for (SSTableReader r : readers) {
                    r.close();
                }
            }
        }
        return BreakwaterCli.OK;
    }

    @SuppressWarnings("try") // the lock check is held, unused, for the duration of the body
    private int dumpTable() throws IOException {
        Path file = target.toAbsolutePath();
        Path dataDir = dataDirOf(file);
        try (EngineLockCheck ignored = dataDir == null ? null : EngineLockCheck.acquire(dataDir);
             TableFile tables = new TableFile(RealFileSystem.withoutDirectIo())) {
            StoredIndex ix = null;
            DatasetSpec ds = null;
            if (dataDir != null) {
                for (StoredDataset d : StoredCatalog.read(RealFileSystem.withoutDirectIo(), dataDir).datasets()) {
                    for (StoredIndex i : d.indexes()) {
                        if (i.directory().toAbsolutePath().equals(file.getParent())) {
                            ix = i;
                            ds = d.spec();
                        }
                    }
                }
            }
            byte[] lo = null;
            byte[] hi = null;
            if (ix != null) {
                byte[][] b = ix.byteRange(new KeyRange(from == null ? null : KeyArgument.parse(from, ix, ds), true,
                        to == null ? null : KeyArgument.parse(to, ix, ds), true, false));
                lo = b[0];
                hi = b[1];
            } else {
                lo = from == null ? null : KeyArgument.parseHex(from);
                hi = to == null ? null : KeyRanges.prefixEnd(KeyArgument.parseHex(to));
            }
            try (SSTableReader r = tables.open(file, pageSize(tables, file));
                 EntryCursor c = r.cursor(lo, lo == null ? 0 : lo.length, IoPurpose.QUERY)) {
                print(c, hi, new EntryPrinter(spec.commandLine().getOut(), ix, ds, json));
            }
        }
        return BreakwaterCli.OK;
    }

    /** Prints entries until the cursor ends, a key reaches {@code toExclusive}, or the limit. */
    private void print(EntryCursor c, byte[] toExclusive, EntryPrinter printer) throws IOException {
        long n = 0;
        while (n < limit && c.next()) {
            if (toExclusive != null && Arrays.compareUnsigned(c.key(), 0, c.keyLength(), toExclusive, 0, toExclusive.length) >= 0) {
                break;
            }
            printer.print(c);
            n++;
        }
        spec.commandLine().getOut().flush();
        PrintWriter err = spec.commandLine().getErr();
        err.println(n + " entr" + (n == 1 ? "y" : "ies"));
        err.flush();
    }

    private static int pageSize(TableFile tables, Path p) throws IOException {
        int ps = tables.detectPageSize(p);
        if (ps < 0) {
            throw new IOException(p + ": no page size ends the file with a valid footer page; run breakwater verify");
        }
        return ps;
    }

    /** {@code DIR} if {@code file} is {@code DIR/datasets/<id>_<name>/tree-<id>/<n>.sst} and DIR has a catalog. */
    private static Path dataDirOf(Path file) {
        Path tree = file.getParent();
        Path datasetDir = tree == null ? null : tree.getParent();
        Path root = datasetDir == null ? null : datasetDir.getParent();
        Path dir = root == null ? null : root.getParent();
        return dir != null && Files.exists(dir.resolve(StoredCatalog.CATALOG_FILE)) ? dir : null;
    }

    private void warnIfLogHoldsMore(DataDirectory data, Version v) throws IOException {
        long end = data.logEndLsn(data.segments());
        var cp = data.checkpoint();
        long start = cp == null ? 0 : cp.path("logStartLsn").asLong(0);
        long from = Math.max(v.lastFlushedLsn() + 1, start);
        if (end > from) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("warning: the log holds " + (end - from) + " bytes of commits from LSN " + from
                    + " that may not be in this index's SSTables yet (the engine replays them at its next open)");
            err.flush();
        }
    }
}
