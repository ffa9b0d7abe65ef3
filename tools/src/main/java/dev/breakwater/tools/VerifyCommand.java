package dev.breakwater.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.breakwater.lsm.tree.TableFiles;
import dev.breakwater.lsm.version.Manifest;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.txn.StoredCatalog;
import dev.breakwater.txn.StoredCatalog.StoredDataset;
import dev.breakwater.txn.StoredCatalog.StoredIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code breakwater verify DIR}: reads every page of every SSTable the manifests name and the
 * records of every log segment (each up to its first bad record), checks checksums, page types, key order and counts, and reports
 * every problem with its file and page or offset; exits {@link BreakwaterCli#PROBLEMS} if there is
 * any. It opens files read-only and never runs recovery, deletes orphans or truncates a torn tail.
 *
 * <p>Thread safety: one run per instance.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Read every SSTable page and every log record; check checksums and key order.",
                "Reports every problem with file and page/offset; exit code 1 if there is any. Modifies nothing."})
final class VerifyCommand implements Callable<Integer> {

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
            try (TableFile tables = new TableFile(data.fs())) {
                return verify(data, tables, out);
            }
        }
    }

    private Integer verify(DataDirectory data, TableFile tables, PrintWriter out) throws IOException {
        Findings findings = new Findings(out);
        if (!data.hasCatalog()) {
            findings.note(data.rel(data.dir().resolve(StoredCatalog.CATALOG_FILE)), "absent: not a Breakwater data directory, "
                    + "or no dataset was ever created in it");
        }
        SSTableVerifier tablesCheck = new SSTableVerifier(data.fs(), tables, findings);
        long minDurable = Long.MAX_VALUE;
        int trees = 0;
        int files = 0;
        Set<String> datasetDirs = new HashSet<>();
        for (StoredDataset d : data.catalog().datasets()) {
            datasetDirs.add(d.directory().getFileName().toString());
            for (StoredIndex ix : d.indexes()) {
                trees++;
                Manifest.Replayed m = manifest(data, ix, findings);
                if (m != null) {
                    minDurable = Math.min(minDurable, m.version().lastFlushedLsn());
                    files += m.version().allTables().size();
                    verifyTables(data, ix, m, tablesCheck, findings);
                }
            }
        }
        noteUnnamedDatasetDirectories(data, datasetDirs, findings);
        long[] segments = data.segments();
        LogVerifier log = new LogVerifier(data, findings);
        log.verify(segments);
        checkRecoveryStart(data, segments, minDurable, findings);
        int problems = findings.problems();
        out.println("verified " + trees + " tree(s), " + files + " SSTable(s) (" + tablesCheck.pagesRead() + " pages, "
                + tablesCheck.entriesRead() + " entries), " + segments.length + " log segment(s) (" + log.records()
                + " records): " + (problems == 0 ? "no problems" : problems + " problem(s)"));
        out.flush();
        return problems == 0 ? BreakwaterCli.OK : BreakwaterCli.PROBLEMS;
    }

    /** Every SSTable the version names, then the SSTable files it does not name. */
    private static void verifyTables(DataDirectory data, StoredIndex ix, Manifest.Replayed m, SSTableVerifier check,
                                     Findings findings) throws IOException {
        Set<String> live = new HashSet<>();
        for (TableMeta t : m.version().allTables()) {
            Path p = TableFiles.path(ix.directory(), t.fileNumber());
            live.add(p.getFileName().toString());
            if (!data.fs().exists(p)) {
                findings.problem(data.rel(p), "the manifest names this SSTable but the file is missing");
                continue;
            }
            try {
                check.verify(p, data.rel(p), t);
            } catch (IOException | RuntimeException e) {
                findings.problem(data.rel(p), "could not be read to the end: " + e);
            }
        }
        for (String f : data.fs().list(ix.directory())) {
            if (TableFiles.parse(f) >= 0 && !live.contains(f)) {
                findings.note(data.rel(ix.directory().resolve(f)), "no installed version names this SSTable "
                        + "(output of a flush or merge cut short); the engine deletes it at open");
            }
        }
    }

    private static void noteUnnamedDatasetDirectories(DataDirectory data, Set<String> named, Findings findings) throws IOException {
        Path root = data.catalog().datasetsDirectory();
        if (data.fs().exists(root)) {
            for (String name : data.fs().list(root)) {
                if (!named.contains(name)) {
                    findings.note(data.rel(root.resolve(name)), "the catalog names no such dataset; the engine deletes it at open");
                }
            }
        }
    }

    private static Manifest.Replayed manifest(DataDirectory data, StoredIndex ix, Findings findings) {
        Manifest.Replayed m;
        try {
            m = data.manifest(ix.directory());
        } catch (IOException e) {
            findings.problem(data.rel(ix.directory()), "manifest unreadable: " + e.getMessage());
            return null;
        }
        if (m.tornTail()) {
            findings.problem(data.rel(m.file()) + " offset " + m.goodBytes(), "the record there fails its length or CRC check ("
                    + (m.fileBytes() - m.goodBytes()) + " bytes to the end); after a crash during an append this is a torn "
                    + "tail that the engine truncates at open, otherwise the manifest is damaged");
        }
        return m;
    }

    /** Recovery starts at the lowest durable LSN (or the checkpoint's log start): the log must still hold it. */
    private static void checkRecoveryStart(DataDirectory data, long[] segments, long minDurable, Findings findings) {
        JsonNode cp;
        try {
            cp = data.checkpoint();
        } catch (IOException e) {
            findings.problem(data.rel(data.checkpointFile()), "not readable as JSON: " + e.getMessage());
            return;
        }
        long start = cp == null ? 0 : cp.path("logStartLsn").asLong(0);
        long from = Math.max(minDurable == Long.MAX_VALUE ? 0 : minDurable + 1, start);
        if (segments.length > 0 && from < segments[0]) {
            findings.problem(data.rel(data.logDir()), "recovery must replay from LSN " + from
                    + " but the oldest segment starts at LSN " + segments[0] + ": segments still needed are missing");
        }
    }
}
