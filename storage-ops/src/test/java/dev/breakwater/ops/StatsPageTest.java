package dev.breakwater.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.StorageEngine;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads the page in headless Chromium against a running engine under a write load, checks that all
 * five plots drew data, and saves a screenshot as {@code target/stats-page.png}. Skipped when no
 * Chromium is installed ({@code apt-get install -y chromium}; {@code .ci/run} installs it).
 */
class StatsPageTest {


    @TempDir
    Path dir;

    static Optional<Path> chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path exe = Path.of(p, name);
                if (Files.isExecutable(exe)) {
                    return Optional.of(exe);
                }
            }
        }
        return Optional.empty();
    }

    @Test
    void plotsRenderLiveDataInHeadlessChromium() throws Exception {
        Optional<Path> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(),
                "Chromium is not installed: skipping the page test (apt-get install -y chromium; .ci/run does this)");
        try (StorageEngine engine = StorageEngine.open(dir.resolve("db"), OpsFixture.withHttp(30_000).build())) {
            Dataset c = OpsFixture.customers(engine);
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                for (int i = 0; !stop.get(); i += 200) {
                    OpsFixture.insert(c, i, i + 200);
                }
            }, "page-test-writer");
            writer.start();
            try {
                InetSocketAddress a = OpsFixture.address(engine);
                String url = "http://127.0.0.1:" + a.getPort() + "/";
                String dom = run(chromium.get(), List.of("--dump-dom", url), "dom");
                int polls = attr(dom, "polls");
                int plotsWithData = attr(dom, "plots-with-data");
                int points = attr(dom, "points");
                assertTrue(polls >= 3, "the page polled at least three times: " + polls);
                assertEquals(5, plotsWithData, "every plot drew data (points " + points + ")");
                assertTrue(dom.contains("customer.primary"), "the datasets table lists the trees");

                Path shot = Path.of("target", "stats-page.png").toAbsolutePath();
                Files.deleteIfExists(shot);
                run(chromium.get(), List.of("--window-size=1280,1400", "--screenshot=" + shot, url), "screenshot");
                assertTrue(Files.size(shot) > 10_000, "screenshot written to " + shot);
            } finally {
                stop.set(true);
                writer.join();
            }
        }
    }

    private static int attr(String dom, String name) {
        Matcher m = Pattern.compile("<body[^>]*?data-" + name + "=\"(\\d+)\"").matcher(dom);
        if (!m.find()) {
            throw new AssertionError("no data-" + name + " on <body> in: " + dom.substring(0, Math.min(2000, dom.length())));
        }
        return Integer.parseInt(m.group(1));
    }

    /** Runs headless Chromium with a fresh profile and a virtual-time budget; returns its stdout. */
    private String run(Path chromium, List<String> args, String what) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + Files.createTempDirectory(dir, "chrome"),
                "--virtual-time-budget=8000"));
        cmd.addAll(args);
        Path out = dir.resolve(what + ".out");
        Path err = dir.resolve(what + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish (" + what + "): " + Files.readString(err));
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError("chromium failed (" + what + ", exit " + p.exitValue() + "): " + Files.readString(err));
        }
        return stdout;
    }
}
