package dev.breakwater.bench.ycsb;

import java.util.Locale;

/** Parses and prints byte sizes such as {@code 64m}, {@code 1g}, {@code 512k} or {@code 1048576}. */
public final class Sizes {

    private Sizes() {
    }

    /** Bytes in {@code text}: a number with an optional k/m/g/t suffix (powers of 1024, "b"/"ib" ignored). */
    public static long parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        long mult = 1;
        char last = s.isEmpty() ? ' ' : s.charAt(s.length() - 1);
        switch (last) {
            case 'k' -> mult = 1L << 10;
            case 'm' -> mult = 1L << 20;
            case 'g' -> mult = 1L << 30;
            case 't' -> mult = 1L << 40;
            default -> mult = 1;
        }
        if (mult != 1) {
            s = s.substring(0, s.length() - 1);
        }
        return Math.round(Double.parseDouble(s) * mult);
    }

    /** {@code bytes} as a short human-readable size (MiB/GiB). */
    public static String format(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "g";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "m";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "k";
        }
        return Long.toString(bytes);
    }
}
