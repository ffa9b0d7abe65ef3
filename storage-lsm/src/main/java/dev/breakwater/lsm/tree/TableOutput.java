package dev.breakwater.lsm.tree;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.sstable.SSTableMetadata;
import dev.breakwater.lsm.sstable.SSTableOptions;
import dev.breakwater.lsm.sstable.SSTableWriter;
import dev.breakwater.lsm.version.TableMeta;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Writes a sorted stream into one or more SSTables of about a target size each (the output of a
 * flush or a merge), each file complete and synced before the next starts; then syncs the directory
 * so the new names survive a crash. On failure every file it started is deleted.
 *
 * <p>Thread safety: none; one flush or merge job.
 */
final class TableOutput {

    /** A sink for callers that count their bytes another way (flushes count theirs at install). */
    static final LongConsumer UNCOUNTED = bytes -> { };

    private TableOutput() {
    }

    /**
     * @param written told the bytes of each page batch as it reaches a file (see
     *                {@link SSTableWriter#create(FileSystem, Path, SSTableOptions, IoStatistics, IoPurpose, LongConsumer)})
     * @return the tables written, in key order (empty if the stream was empty)
     */
    static List<TableMeta> write(EntryCursor source, FileSystem fs, Path dir, SSTableOptions options, IoStatistics io,
                                 IoPurpose purpose, LongConsumer written, LongSupplier fileNumbers, long targetBytes,
                                 long minLsn, long maxLsn) throws IOException {
        List<TableMeta> out = new ArrayList<>();
        List<Path> started = new ArrayList<>();
        SSTableWriter writer = null;
        long fileNumber = -1;
        try {
            while (source.next()) {
                if (writer == null) {
                    fileNumber = fileNumbers.getAsLong();
                    Path path = TableFiles.path(dir, fileNumber);
                    started.add(path);
                    writer = SSTableWriter.create(fs, path, options, io, purpose, written);
                }
                writer.add(source.key(), source.keyLength(), source.value(), source.valueLength(), source.isTombstone());
                if (writer.leafBytes() >= targetBytes) {
                    out.add(finish(writer, fileNumber, minLsn, maxLsn));
                    writer = null;
                }
            }
            if (writer != null) {
                out.add(finish(writer, fileNumber, minLsn, maxLsn));
                writer = null;
            }
            if (!out.isEmpty()) {
                fs.syncDirectory(dir);
            }
            return out;
        } catch (IOException | RuntimeException e) {
            if (writer != null) {
                try {
                    writer.abort();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            for (Path p : started) {
                try {
                    fs.delete(p);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static TableMeta finish(SSTableWriter writer, long fileNumber, long minLsn, long maxLsn) throws IOException {
        SSTableMetadata m = writer.finish(minLsn, maxLsn);
        writer.close();
        return new TableMeta(fileNumber, m.fileBytes(), m.entryCount(), m.firstKey(), m.lastKey(), minLsn, maxLsn);
    }
}
