package dev.breakwater.kstreams;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

/**
 * The marker file a store keeps in its task's directory, {@code <task dir>/<store name>.breakwater}:
 * the proof that the task directory Kafka Streams manages and the dataset in the shared engine
 * belong together. Kafka Streams deletes the task directory when it wipes a task's state (a corrupted
 * task under exactly-once, {@code KafkaStreams.cleanUp()}, the cleaner removing a task that moved
 * away); the marker goes with it, and the store then starts its dataset empty (docs/kafka-streams.md).
 *
 * <p>Format: a {@link Properties} text file in UTF-8 with three keys:
 * <pre>
 * format=breakwater-kstreams-store 1
 * engine=&lt;the engine's id, a UUID kept in the instance catalog&gt;
 * dataset=&lt;the dataset name&gt;
 * </pre>
 * Written to a temporary file, forced, and renamed over the old one, so a reader sees a whole marker
 * or none. A marker with another format line, or that cannot be parsed, reads as absent
 * ({@link #read} returns null), which makes the store start empty and restore from the changelog.
 *
 * @param engineId the id of the engine holding the dataset
 * @param dataset  the dataset's name
 */
record StoreMarker(String engineId, String dataset) {

    static final String SUFFIX = ".breakwater";
    private static final String FORMAT = "breakwater-kstreams-store 1";

    static Path path(Path taskDir, String storeName) {
        return taskDir.resolve(storeName + SUFFIX);
    }

    /** The marker at {@code file}, or null if there is none or it is not a marker of this format. */
    static StoreMarker read(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        }
        Properties p = new Properties();
        try (Reader r = new StringReader(text)) {
            p.load(r);
        } catch (IllegalArgumentException e) {
            return null;
        }
        String engine = p.getProperty("engine");
        String dataset = p.getProperty("dataset");
        if (!FORMAT.equals(p.getProperty("format")) || engine == null || dataset == null) {
            return null;
        }
        return new StoreMarker(engine, dataset);
    }

    /** Writes the marker atomically (temporary file, force, rename). */
    void write(Path file) throws IOException {
        String text = "format=" + FORMAT + "\nengine=" + engineId + "\ndataset=" + dataset + "\n";
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }
}
