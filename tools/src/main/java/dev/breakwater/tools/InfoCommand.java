package dev.breakwater.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.breakwater.common.config.Sizes;
import dev.breakwater.lsm.tree.TableFiles;
import dev.breakwater.lsm.version.Manifest;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.txn.Field;
import dev.breakwater.txn.StoredCatalog.StoredDataset;
import dev.breakwater.txn.StoredCatalog.StoredIndex;
import dev.breakwater.txn.log.SegmentFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code breakwater info DIR}: datasets, their indexes and trees, each tree's levels, runs and
 * SSTable files with sizes, the log's segments, the checkpoint, and where recovery would start.
 * Reads only the catalog, the manifests, file sizes and the checkpoint (no SSTable is opened).
 *
 * <p>Thread safety: one run per instance.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Datasets, indexes, trees, levels, files, sizes, log segments and checkpoint of a data directory.")
final class InfoCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR", description = "The data directory (no engine may have it open).")
    Path dir;

    @Spec
    CommandSpec spec;

    @Override
    @SuppressWarnings("try") // the lock check is held, unused, for the duration of the body
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        try (EngineLockCheck ignored = EngineLockCheck.acquire(dir)) {
            DataDirectory data = DataDirectory.open(dir);
            out.println("data directory " + dir.toAbsolutePath());
            List<StoredDataset> datasets = data.catalog().datasets();
            out.println(datasets.size() + " dataset(s)" + (data.hasCatalog() ? ""
                    : " (no catalog file: not a Breakwater data directory, or no dataset was ever created in it)"));
            long minDurable = Long.MAX_VALUE;
            for (StoredDataset d : datasets) {
                out.println();
                out.println("dataset " + d.spec().name() + " (id " + d.id() + ", " + data.rel(d.directory()) + ")");
                out.println("  fields: " + String.join(", ", d.spec().fields().stream().map(InfoCommand::field).toList()));
                if (d.spec().memoryComponent() != null) {
                    out.println("  memory component: " + memoryComponent(d.spec().memoryComponent()));
                }
                int lastPartition = -1;
                for (StoredIndex ix : d.indexes()) {
                    if (d.partitions() > 1 && ix.partition() != lastPartition) {
                        lastPartition = ix.partition();
                        out.println("  partition " + lastPartition + " of " + d.partitions());
                    }
                    minDurable = Math.min(minDurable, printTree(out, data, ix));
                }
            }
            out.println();
            printLog(out, data, minDurable);
            out.flush();
        }
        return BreakwaterCli.OK;
    }

    /** The dataset's own memory-component kind; parameters it leaves to the engine's options are not shown. */
    private static String memoryComponent(dev.breakwater.txn.MemoryComponentOverride m) {
        StringBuilder sb = new StringBuilder(m.kind().name());
        if (m.hashPrefix() != null) {
            sb.append(", hash prefix ").append(m.hashPrefix());
        }
        if (m.hashBuckets() != null) {
            sb.append(", ").append(m.hashBuckets()).append(" buckets");
        }
        if (m.vectorReserve() != null) {
            sb.append(", ").append(m.vectorReserve()).append(" entries reserved");
        }
        return sb.toString();
    }

    private static String field(Field f) {
        return f.name() + " " + f.type() + (f.nullable() ? " null" : "");
    }

    /** Prints one tree; returns its durable LSN (Long.MAX_VALUE if its manifest is unreadable). */
    private static long printTree(PrintWriter out, DataDirectory data, StoredIndex ix) {
        out.println("  index " + ix.name() + (ix.isPrimary() ? " (primary)" : "") + ": key (" + String.join(", ", ix.keyFields())
                + "), tree " + ix.treeId() + " in " + data.rel(ix.directory()));
        Manifest.Replayed m;
        try {
            m = data.manifest(ix.directory());
        } catch (IOException e) {
            out.println("    manifest unreadable: " + e.getMessage());
            return Long.MAX_VALUE;
        }
        Version v = m.version();
        long bytes = 0;
        int files = 0;
        for (int level = 0; level < v.levelCount(); level++) {
            bytes += v.levelBytes(level);
            files += v.levelTables(level);
        }
        out.println("    manifest " + m.file().getFileName() + ": " + m.edits() + " edits, " + m.goodBytes() + " bytes"
                + (m.tornTail() ? ", TORN TAIL after byte " + m.goodBytes() + " of " + m.fileBytes() : "")
                + "; durable through LSN " + v.lastFlushedLsn() + "; " + files + " SSTables, " + Sizes.format(bytes));
        for (int level = 0; level < v.levelCount(); level++) {
            List<Run> runs = v.level(level);
            out.println("    L" + level + ": " + runs.size() + " run(s), " + v.levelTables(level) + " file(s), "
                    + Sizes.format(v.levelBytes(level)));
            for (Run r : runs) {
                for (TableMeta t : r.tables()) {
                    out.println("      run " + r.id() + "  " + TableFiles.name(t.fileNumber()) + "  " + t.sizeBytes() + " B  "
                            + t.entries() + " entries  LSN " + t.minLsn() + ".." + t.maxLsn());
                }
            }
        }
        return v.lastFlushedLsn();
    }

    private static void printLog(PrintWriter out, DataDirectory data, long minDurable) throws IOException {
        long[] segments = data.segments();
        long end = data.logEndLsn(segments);
        out.println("log " + data.rel(data.logDir()) + ": " + segments.length + " segment(s)"
                + (segments.length == 0 ? "" : ", LSN " + segments[0] + " to " + end + " (" + Sizes.format(end - segments[0]) + ")"));
        for (long first : segments) {
            Path p = SegmentFiles.path(data.logDir(), first);
            out.println("  " + p.getFileName() + "  " + data.fs().size(p) + " B");
        }
        JsonNode cp;
        try {
            cp = data.checkpoint();
        } catch (IOException e) {
            out.println("checkpoint " + data.rel(data.checkpointFile()) + " unreadable: " + e.getMessage());
            return;
        }
        long start = 0;
        if (cp == null) {
            out.println("checkpoint: none written yet");
        } else {
            start = cp.path("logStartLsn").asLong(0);
            out.println("checkpoint: log start LSN " + start + ", log end LSN " + cp.path("logEndLsn").asLong(-1)
                    + ", written " + Instant.ofEpochMilli(cp.path("writtenAtMillis").asLong(0)));
        }
        long from = Math.max(minDurable == Long.MAX_VALUE ? 0 : minDurable + 1, start);
        out.println(end > from
                ? "recovery at the next open replays the log from LSN " + from + " (" + Sizes.format(end - from) + ")"
                : "recovery at the next open has nothing to replay");
    }
}
