package dev.breakwater.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code verify} found: problems (anything that makes the exit code non-zero) and notes
 * (things worth knowing that are not damage, such as files the engine would clean up at open).
 * Each names the file and the place in it (page and byte offset, or log offset and LSN).
 *
 * <p>Thread safety: not thread-safe; one command fills it.
 */
final class Findings {

    /** One finding. {@code where} is a file, optionally followed by the place in it. */
    record Finding(boolean problem, String where, String what) {
        @Override
        public String toString() {
            return (problem ? "PROBLEM " : "note    ") + where + ": " + what;
        }
    }

    private final List<Finding> all = new ArrayList<>();
    private final PrintWriter out;

    /** Prints each finding to {@code out} as it is added. */
    Findings(PrintWriter out) {
        this.out = out;
    }

    void problem(String where, String what) {
        add(new Finding(true, where, what));
    }

    void note(String where, String what) {
        add(new Finding(false, where, what));
    }

    private void add(Finding f) {
        all.add(f);
        out.println(f);
        out.flush();
    }

    int problems() {
        return (int) all.stream().filter(Finding::problem).count();
    }

    List<Finding> all() {
        return List.copyOf(all);
    }
}
