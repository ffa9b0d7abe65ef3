package dev.breakwater.bench.safety;

import dev.breakwater.txn.CrashModel;
import dev.breakwater.txn.CrashWorkload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM running {@link CrashWorkload} in a soak cycle: starts it, feeds its {@code TRY} and
 * {@code ACK} lines into the {@link CrashModel} from a reader thread, tracks its {@link KillPhase},
 * lets the caller wait for a phase, and kills it with SIGKILL.
 *
 * <p>Invariant: every line the child printed before it died is recorded in the model once
 * {@link #kill()} returns (the reader thread is joined). Thread safety: one controlling thread; the
 * phase is published to it by the reader thread through a monitor.
 */
final class SoakChild {

    private final Process process;
    private final Thread reader;
    private final Path stderr;
    /** Guarded by {@code this}. */
    private KillPhase phase = KillPhase.BEFORE_OPEN;

    SoakChild(Path dir, long firstTxn, long closeAfterMillis, CrashModel model, Path stderr) throws IOException {
        this.stderr = stderr;
        model.startCycle(firstTxn);
        process = new ProcessBuilder(CrashWorkload.childCommand(dir, firstTxn, closeAfterMillis))
                .redirectError(stderr.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        reader = new Thread(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    model.record(line);
                    setPhase(KillPhase.after(line, currentPhase()));
                }
            } catch (IOException ignored) {
                // the pipe breaks when the child dies
            }
            setPhase(KillPhase.AFTER_CLOSE);
        }, "soak-child-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private synchronized void setPhase(KillPhase p) {
        phase = p;
        notifyAll();
    }

    synchronized KillPhase currentPhase() {
        return phase;
    }

    /** Waits until the child has reached {@code target} (or a later phase); false on timeout. */
    synchronized boolean awaitPhase(KillPhase target, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (phase.ordinal() < target.ordinal()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /**
     * Sends SIGKILL (unless the child already exited), waits for it and its output. Returns the
     * phase the kill landed in ({@link KillPhase#AFTER_CLOSE} if the child had exited).
     */
    KillPhase kill() throws InterruptedException {
        KillPhase landed = process.isAlive() ? currentPhase() : KillPhase.AFTER_CLOSE;
        // SIGKILL on Linux: no shutdown hooks, no flush. Through the handle, because
        // Process.destroyForcibly also closes our end of the pipe, which drops the lines the child
        // wrote but we had not read yet (its last TRY/ACKs would then look like phantoms).
        process.toHandle().destroyForcibly();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("child " + process.pid() + " did not die within 60 s of SIGKILL");
        }
        reader.join(10_000);
        return landed;
    }

    /** Sends SIGKILL without waiting (for a shutdown hook). */
    void killQuietly() {
        process.toHandle().destroyForcibly();
    }

    /** True if the child exited by itself with a failure (not killed, not a clean exit). */
    boolean failedOnItsOwn() {
        int code = process.exitValue();
        return code != 0 && code != 137;
    }

    /** The last lines of the child's standard error, for a report. */
    String stderrTail() {
        try {
            String s = Files.readString(stderr, StandardCharsets.UTF_8);
            return s.length() <= 2000 ? s : s.substring(s.length() - 2000);
        } catch (IOException e) {
            return "(cannot read " + stderr + ": " + e + ")";
        }
    }
}
