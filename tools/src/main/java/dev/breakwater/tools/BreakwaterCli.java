package dev.breakwater.tools;

import dev.breakwater.txn.StorageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code breakwater} command line: {@code info}, {@code verify} and {@code dump} read a data
 * directory that no engine has open (they refuse one an engine holds, see {@link EngineLockCheck},
 * and never modify a file); {@code stats} prints a running engine's statistics endpoint; {@code advise}
 * recommends an LSM design for a workload (paper 003, {@link AdviseCommand}).
 *
 * <p>Exit codes: {@value #OK} success; {@value #PROBLEMS} {@code verify} found problems;
 * {@value #USAGE} bad arguments; {@value #FAILED} the command could not run (an engine holds the
 * directory, a file is unreadable, the endpoint did not answer).
 *
 * <p>Thread safety: one run per instance.
 */
@Command(name = "breakwater", mixinStandardHelpOptions = true, version = "breakwater 0.1.0",
        description = "Inspect a Breakwater data directory that no engine has open, or a running engine's stats.",
        subcommands = {InfoCommand.class, VerifyCommand.class, DumpCommand.class, StatsCommand.class, AdviseCommand.class,
                CommandLine.HelpCommand.class})
public final class BreakwaterCli implements Runnable {

    /** Success. */
    public static final int OK = 0;
    /** {@code verify} found at least one problem. */
    public static final int PROBLEMS = 1;
    /** Bad arguments (picocli's usage error code). */
    public static final int USAGE = 2;
    /** The command could not run: the directory is held or unreadable, the endpoint did not answer. */
    public static final int FAILED = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: info, verify, dump, stats or advise");
    }

    /** A command line whose failures print one line (no stack trace) and exit {@link #FAILED}. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new BreakwaterCli());
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            PrintWriter err = line.getErr();
            if (e instanceof IOException || e instanceof UncheckedIOException || e instanceof StorageException
                    || e instanceof IllegalArgumentException || e instanceof IllegalStateException) {
                err.println("breakwater " + line.getCommandName() + ": " + message(e));
                err.flush();
                return FAILED;
            }
            throw e;
        });
        return cl;
    }

    private static String message(Exception e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : (e instanceof java.nio.file.NoSuchFileException ? "no such file: " + m : m);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
