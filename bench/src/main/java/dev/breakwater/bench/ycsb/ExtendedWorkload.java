package dev.breakwater.bench.ycsb;

/**
 * The operation mixes of the extended driver. The first four are those of paper 000 §6.2 (writes
 * are updates of one field); A–F follow the published YCSB core workloads: A 50% reads / 50%
 * updates, B 95/5, C reads only, D 95% reads of the latest records / 5% inserts, E 95% scans of
 * 1–100 records / 5% inserts, F 50% reads / 50% read-modify-writes.
 */
public enum ExtendedWorkload {
    WRITE_ONLY(0, 1, 0, 0, 0, false),
    WRITE_HEAVY(0.5, 0.5, 0, 0, 0, false),
    READ_HEAVY(0.95, 0.05, 0, 0, 0, false),
    SCAN_HEAVY(0, 0.05, 0, 0.95, 0, false),
    A(0.5, 0.5, 0, 0, 0, false),
    B(0.95, 0.05, 0, 0, 0, false),
    C(1, 0, 0, 0, 0, false),
    D(0.95, 0, 0.05, 0, 0, true),
    E(0, 0, 0.05, 0.95, 0, false),
    F(0.5, 0, 0, 0, 0.5, false);

    final double read;
    final double update;
    final double insert;
    final double scan;
    final double readModifyWrite;
    /** Reads choose recent records (YCSB's "latest" distribution) rather than Zipfian ones. */
    final boolean latest;

    ExtendedWorkload(double read, double update, double insert, double scan, double readModifyWrite, boolean latest) {
        this.read = read;
        this.update = update;
        this.insert = insert;
        this.scan = scan;
        this.readModifyWrite = readModifyWrite;
        this.latest = latest;
    }

    /** Scan lengths: fixed at the maximum for SCAN_HEAVY, uniform in 1..max for E (YCSB's default). */
    boolean uniformScanLength() {
        return this == E;
    }

    /** Picks an operation for a uniform draw {@code u} in [0, 1). */
    OpType pick(double u) {
        double c = read;
        if (u < c) {
            return OpType.READ;
        }
        c += update;
        if (u < c) {
            return OpType.UPDATE;
        }
        c += insert;
        if (u < c) {
            return OpType.INSERT;
        }
        c += scan;
        if (u < c) {
            return OpType.SCAN;
        }
        return readModifyWrite > 0 ? OpType.READ_MODIFY_WRITE : OpType.READ;
    }

    /** The operation types of the extended driver. */
    public enum OpType {
        READ, UPDATE, INSERT, SCAN, READ_MODIFY_WRITE
    }
}
