package dev.breakwater.tuner;

/**
 * Least-squares line {@code y = slope·x + intercept} through a few points; the Newton–Raphson line
 * of paper 000 §5.4. Stateless.
 */
final class LineFit {

    private LineFit() {
    }

    /**
     * The fitted value at {@code x} of the line with {@code slope} through the first {@code n} points
     * (least squares passes through their mean).
     */
    static double valueAt(double[] xs, double[] ys, int n, double slope, double x) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += xs[i];
            my += ys[i];
        }
        return my / n + slope * (x - mx / n);
    }

    /**
     * The slope through {@code (xs[i], ys[i])} for the first {@code n} points, or NaN when the xs
     * spread over less than {@code minSpread} (the slope would be noise) or {@code n < 2}.
     */
    static double slope(double[] xs, double[] ys, int n, double minSpread) {
        if (n < 2) {
            return Double.NaN;
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            min = Math.min(min, xs[i]);
            max = Math.max(max, xs[i]);
            mx += xs[i];
            my += ys[i];
        }
        if (max - min < Math.max(minSpread, Double.MIN_NORMAL)) {
            return Double.NaN;
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            sxy += (xs[i] - mx) * (ys[i] - my);
            sxx += (xs[i] - mx) * (xs[i] - mx);
        }
        return sxy / sxx;
    }
}
