package dev.breakwater.bench.safety;

import dev.breakwater.txn.CrashCheck;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Running totals of a {@link KillSoak}: cycles, where the kills landed, and every kind of damage
 * {@link CrashCheck} counts, summed over cycles (the soak leaves a damaged directory after the check
 * that found the damage, so each piece is counted once; any non-zero total is a failure). Thread
 * safety: confined to the soak's main thread.
 */
final class SoakTotals {

    private static final int MAX_EXAMPLES = 20;

    long cycles;
    long ackedCommits;
    long lost;
    long phantom;
    long partial;
    long indexMismatches;
    long counterMismatches;
    long childFailures;
    long openFailures;
    final Map<KillPhase, Long> kills = new EnumMap<>(KillPhase.class);
    final List<String> examples = new ArrayList<>();

    void kill(KillPhase phase) {
        kills.merge(phase, 1L, Long::sum);
    }

    void add(long cycle, CrashCheck.Result r, long newlyAcked) {
        ackedCommits += newlyAcked;
        lost += r.lost();
        phantom += r.phantom();
        partial += r.partial();
        indexMismatches += r.indexMismatches();
        counterMismatches += r.counterMismatches();
        for (String e : r.examples()) {
            example("cycle " + cycle + ": " + e);
        }
    }

    void example(String what) {
        if (examples.size() < MAX_EXAMPLES) {
            examples.add(what);
        }
    }

    boolean clean() {
        return lost == 0 && phantom == 0 && partial == 0 && indexMismatches == 0 && counterMismatches == 0
                && childFailures == 0 && openFailures == 0;
    }

    String progressLine() {
        return String.format("acked %d  lost %d  phantom %d  partial %d  index-mismatch %d  counter-mismatch %d  "
                + "child-failures %d  open-failures %d  kills %s", ackedCommits, lost, phantom, partial, indexMismatches,
                counterMismatches, childFailures, openFailures, kills);
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cycles", cycles);
        m.put("ackedCommits", ackedCommits);
        m.put("lost", lost);
        m.put("phantom", phantom);
        m.put("partial", partial);
        m.put("indexMismatches", indexMismatches);
        m.put("counterMismatches", counterMismatches);
        m.put("childFailures", childFailures);
        m.put("openFailures", openFailures);
        Map<String, Long> k = new LinkedHashMap<>();
        for (KillPhase p : KillPhase.values()) {
            k.put(p.name().toLowerCase(java.util.Locale.ROOT), kills.getOrDefault(p, 0L));
        }
        m.put("killsLandedIn", k);
        m.put("clean", clean());
        m.put("examples", examples);
        return m;
    }
}
