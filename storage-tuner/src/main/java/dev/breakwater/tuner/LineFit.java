package dev.breakwater.tuner;

/**
 * Least-squares line {@code y = slope·x + intercept} through a few points; the Newton–Raphson line
 * of paper 000 §5.4, with what is needed to judge it against noise: the spread of the xs
 * ({@code sxx}, the sum of squared deviations from their mean) and the residual sum of squares.
 * The standard error of the slope is {@code σ / √sxx} for a noise σ of the ys. Immutable.
 *
 * @param n     points fitted
 * @param slope the least-squares slope
 * @param meanX mean of the xs (the line passes through the means)
 * @param meanY mean of the ys
 * @param sxx   {@code Σ (x − meanX)²}
 * @param ssr   {@code Σ (y − line(x))²}
 */
record LineFit(int n, double slope, double meanX, double meanY, double sxx, double ssr) {

    /** The line's value at {@code x}. */
    double valueAt(double x) {
        return meanY + slope * (x - meanX);
    }

    /** {@code σ / √sxx}: the slope's standard error for noise σ on the ys. */
    double slopeError(double sigma) {
        return sigma / Math.sqrt(sxx);
    }

    /**
     * The line through {@code (xs[i], ys[i])} for the first {@code n} points, or null when the xs
     * spread over less than {@code minSpread} (the slope would be noise) or {@code n < 2}.
     */
    static LineFit of(double[] xs, double[] ys, int n, double minSpread) {
        if (n < 2) {
            return null;
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
            return null;
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            sxy += (xs[i] - mx) * (ys[i] - my);
            sxx += (xs[i] - mx) * (xs[i] - mx);
        }
        double slope = sxy / sxx;
        double ssr = 0;
        for (int i = 0; i < n; i++) {
            double r = ys[i] - (my + slope * (xs[i] - mx));
            ssr += r * r;
        }
        return new LineFit(n, slope, mx, my, sxx, ssr);
    }
}
