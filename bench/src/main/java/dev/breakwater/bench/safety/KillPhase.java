package dev.breakwater.bench.safety;

/**
 * Where a SIGKILL of the {@code CrashWorkload} child landed: the last state line the child had
 * printed when the kill was sent (the child may have moved on by a few microseconds).
 */
enum KillPhase {
    /** Before {@code OPENING}: JVM start-up, no engine code ran. */
    BEFORE_OPEN,
    /** After {@code OPENING}, before {@code READY}: inside {@code StorageEngine.open} (recovery) or dataset set-up. */
    OPEN,
    /** After {@code READY}: running transactions. */
    WORK,
    /** After {@code CLOSING}, before {@code CLOSED}: inside {@code StorageEngine.close} (final flush, checkpoint). */
    CLOSE,
    /** The child had closed the engine (or exited) before the kill. */
    AFTER_CLOSE;

    /** The phase a child is in after printing {@code line}, or {@code current} if the line is not a state line. */
    static KillPhase after(String line, KillPhase current) {
        return switch (line) {
            case "OPENING" -> OPEN;
            case "READY" -> WORK;
            case "CLOSING" -> CLOSE;
            case "CLOSED" -> AFTER_CLOSE;
            default -> current;
        };
    }
}
