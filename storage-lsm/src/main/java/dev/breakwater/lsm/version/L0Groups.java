package dev.breakwater.lsm.version;

import java.util.List;

/**
 * Where a flushed SSTable goes in the grouped L0 (paper 000, section 4.1.2): into the oldest group
 * such that neither it nor any newer group overlaps the table; a new newest group if the newest
 * group already overlaps. Putting the table as deep as possible keeps the number of groups, and so
 * the number of places a lookup must search, small.
 *
 * <p>Correctness: the flushed table is newer than everything on disk. Placing it in group {@code g}
 * makes it "older" than the groups before {@code g}, which is harmless exactly when none of them
 * holds any of its keys; and it must not overlap {@code g} itself, since a group is disjoint.
 */
public final class L0Groups {

    /** Placement meaning: start a new group at the newest end of L0. */
    public static final long NEW_GROUP = -1;

    private L0Groups() {
    }

    /** The id of the group {@code table} joins, or {@link #NEW_GROUP}. */
    public static long groupFor(List<Run> l0NewestFirst, TableMeta table) {
        long chosen = NEW_GROUP;
        for (Run g : l0NewestFirst) {
            if (g.overlaps(table.smallest(), table.largest())) {
                break;
            }
            chosen = g.id();
        }
        return chosen;
    }
}
