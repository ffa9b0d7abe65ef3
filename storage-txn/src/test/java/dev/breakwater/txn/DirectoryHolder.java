package dev.breakwater.txn;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A child JVM for {@link OpenSafetyTest}: opens an engine on {@code args[0]}, prints {@code READY}
 * and holds the directory until its standard input closes (or it is killed).
 */
public final class DirectoryHolder {

    private DirectoryHolder() {
    }

    public static void main(String[] args) throws IOException {
        try (StorageEngine engine = StorageEngine.open(Path.of(args[0]), EngineFixture.smallConfig())) {
            System.out.println("READY");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the directory
            }
        }
    }
}
