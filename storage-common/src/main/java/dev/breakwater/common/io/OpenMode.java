package dev.breakwater.common.io;

/**
 * The meaning of a set of {@link OpenOption}s, decoded once so that every {@link FileSystem}
 * implementation interprets them the same way.
 *
 * <p>Rules: {@link OpenOption#WRITE}, {@link OpenOption#CREATE}, {@link OpenOption#CREATE_NEW} and
 * {@link OpenOption#TRUNCATE} each make the file writable; {@link OpenOption#CREATE_NEW} implies
 * {@link OpenOption#CREATE}. With no options, or with only {@link OpenOption#READ} (and perhaps
 * {@link OpenOption#DIRECT}), the file is read-only.
 *
 * <p>Thread safety: immutable.
 */
record OpenMode(boolean writable, boolean create, boolean createNew, boolean truncate, boolean direct) {

    static OpenMode of(OpenOption... options) {
        boolean write = false;
        boolean create = false;
        boolean createNew = false;
        boolean truncate = false;
        boolean direct = false;
        for (OpenOption option : options) {
            switch (option) {
                case READ -> { }
                case WRITE -> write = true;
                case CREATE -> create = true;
                case CREATE_NEW -> createNew = true;
                case TRUNCATE -> truncate = true;
                case DIRECT -> direct = true;
                default -> throw new IllegalArgumentException("unknown open option " + option);
            }
        }
        boolean writable = write || create || createNew || truncate;
        return new OpenMode(writable, create || createNew, createNew, truncate, direct);
    }
}
