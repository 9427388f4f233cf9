package org.fabprobe.model;

import java.util.Optional;
import java.util.TreeSet;
import org.hipparchus.exception.MathRuntimeException;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.RealVector;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresBuilder;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresProblem;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LevenbergMarquardtOptimizer;
import org.hipparchus.util.Pair;

/**
 * Least-squares fit of C, B_r and T_1 of {@link MultiPairModel} to measured T_b(x), with the
 * repetition count n(x) each size actually ran.
 *
 * <p>Residuals are relative, (model - measured) / measured: T_b spans orders of magnitude
 * over the sizes and its noise is multiplicative, and a relative error of T_b is the same
 * relative error of b(x) (eq. 6), so this is also a fit of the bandwidth curve.
 *
 * <p>C enters through the piecewise eq. (2), so the sum of squares is continuous in C but
 * only piecewise smooth (a kink at every measured size), and a local optimizer started at a
 * guess can stop in the wrong piece. Hence a profile first: for fixed C the model is linear in
 * 1/B_r and T_1, so on a grid of C values (geometric, 16 per interval between adjacent sizes,
 * from the smallest to the largest size) the best 1/B_r, T_1 come from a 2x2 weighted linear
 * least squares, exactly; the C with the smallest sum of squares (and B_r > 0) wins. Then
 * Levenberg-Marquardt (Hipparchus) refines all three together from there, and the standard
 * errors come from its covariance, scaled by the residual variance (chi^2 / (m - 3)). A C at
 * either end of the sizes is reported as a bound (not resolved), without an error.
 */
public final class MultiPairFitter {
    private static final int GRID_PER_INTERVAL = 16;

    private MultiPairFitter() {}

    /**
     * @param sizes  message sizes x (bytes, > 0), ascending
     * @param reps   n(x), the ping-pongs per timed loop at each size
     * @param loopNs T_b(x), the measured loop time (ns)
     * @return the fit, or empty with fewer than 4 points or no positive bandwidth anywhere
     */
    public static Optional<MultiPairFit> fit(long[] sizes, long[] reps, double[] loopNs) {
        int m = sizes.length;
        if (reps.length != m || loopNs.length != m) throw new IllegalArgumentException("sizes, reps and times must pair up");
        for (int i = 0; i < m; i++) {
            if (sizes[i] <= 0 || reps[i] <= 0 || !(loopNs[i] > 0) || (i > 0 && sizes[i] <= sizes[i - 1])) {
                throw new IllegalArgumentException("fit needs ascending sizes > 0, counts > 0 and times > 0");
            }
        }
        if (m < 4) return Optional.empty();

        // the profile over C
        double[] best = null;
        double bestCost = Double.POSITIVE_INFINITY;
        for (double c : grid(sizes)) {
            double[] linear = linearFit(sizes, reps, loopNs, c);
            if (linear == null || linear[0] <= 0) continue; // 1/B_r must be positive
            double cost = cost(sizes, reps, loopNs, c, 1 / linear[0], linear[1]);
            if (cost < bestCost) {
                bestCost = cost;
                best = new double[] {c, 1 / linear[0], linear[1]};
            }
        }
        if (best == null) return Optional.empty();

        // the refinement of all three, and the covariance
        double lo = sizes[0], hi = sizes[m - 1];
        LeastSquaresProblem problem = new LeastSquaresBuilder()
                .start(best)
                .model(point -> evaluate(sizes, reps, loopNs, point))
                .target(new double[m])
                .parameterValidator(p -> {
                    RealVector v = p.copy();
                    v.setEntry(0, Math.min(hi, Math.max(lo, v.getEntry(0))));
                    v.setEntry(1, Math.max(v.getEntry(1), 1e-12));
                    return v;
                })
                .maxEvaluations(10_000).maxIterations(1_000)
                .build();
        double[] point = best;
        try {
            double[] refined = new LevenbergMarquardtOptimizer().optimize(problem).getPoint().toArray();
            if (cost(sizes, reps, loopNs, refined[0], refined[1], refined[2]) <= bestCost) point = refined;
        } catch (MathRuntimeException e) {
            // no convergence: the profile's best point stands
        }
        LeastSquaresProblem.Evaluation at = problem.evaluate(new ArrayRealVector(point));
        double rss = at.getCost() * at.getCost();
        boolean resolved = point[0] > lo * 1.001 && point[0] < hi * 0.999;
        double[] err = {Double.NaN, Double.NaN, Double.NaN};
        if (m > 3) {
            try {
                RealMatrix cov = resolved ? at.getCovariances(1e-14) : covarianceWithoutC(at.getJacobian());
                double scale = rss / (m - 3);
                for (int j = 0; j < 3; j++) err[j] = Math.sqrt(cov.getEntry(j, j) * scale);
            } catch (MathRuntimeException singular) {
                // a parameter the data do not determine: its error stays NaN
            }
        }
        return Optional.of(new MultiPairFit(sizes[0], sizes[m - 1], m, point[0], resolved ? err[0] : Double.NaN,
                point[1], err[1], point[2], err[2], resolved, Math.sqrt(rss / m)));
    }

    /** Covariance of B_r and T_1 alone (C at an edge is a bound, not a parameter), padded to 3x3. */
    private static RealMatrix covarianceWithoutC(RealMatrix jacobian) {
        RealMatrix j = jacobian.getSubMatrix(0, jacobian.getRowDimension() - 1, 1, 2);
        RealMatrix inv = org.hipparchus.linear.MatrixUtils.inverse(j.transposeMultiply(j));
        RealMatrix cov = new Array2DRowRealMatrix(3, 3);
        cov.setEntry(0, 0, Double.NaN);
        cov.setSubMatrix(inv.getData(), 1, 1);
        return cov;
    }

    /** C candidates: geometric steps between each pair of adjacent sizes, both ends included. */
    static double[] grid(long[] sizes) {
        TreeSet<Double> cs = new TreeSet<>();
        for (int i = 0; i + 1 < sizes.length; i++) {
            double a = sizes[i], ratio = (double) sizes[i + 1] / sizes[i];
            for (int k = 0; k <= GRID_PER_INTERVAL; k++) cs.add(a * Math.pow(ratio, (double) k / GRID_PER_INTERVAL));
        }
        return cs.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * For fixed C, T_b = (1/B_r) g(x) + T_1 h(x) with g = x [4n - (2n - 1)/beta], h = 4n - 1:
     * the weighted (relative) linear least squares for {1/B_r, T_1}, or null if singular.
     */
    private static double[] linearFit(long[] sizes, long[] reps, double[] loopNs, double c) {
        double sgg = 0, sgh = 0, shh = 0, sg = 0, sh = 0;
        for (int i = 0; i < sizes.length; i++) {
            long n = reps[i];
            double g = sizes[i] * (4.0 * n - (2.0 * n - 1) / MultiPairModel.chunks(sizes[i], c)) / loopNs[i];
            double h = (4.0 * n - 1) / loopNs[i];
            sgg += g * g;
            sgh += g * h;
            shh += h * h;
            sg += g;
            sh += h;
        }
        double det = sgg * shh - sgh * sgh;
        if (!(Math.abs(det) > 1e-300) || Math.abs(det) < 1e-12 * sgg * shh) return null;
        return new double[] {(sg * shh - sh * sgh) / det, (sgg * sh - sgh * sg) / det};
    }

    private static double cost(long[] sizes, long[] reps, double[] loopNs, double c, double br, double t1) {
        MultiPairModel model = new MultiPairModel(c, br, t1);
        double sum = 0;
        for (int i = 0; i < sizes.length; i++) {
            double r = model.loopTimeNs(sizes[i], reps[i]) / loopNs[i] - 1;
            sum += r * r;
        }
        return sum;
    }

    /** Relative residuals (model / measured, against a target of 1 - 1 = 0) and their Jacobian in C, B_r, T_1. */
    private static Pair<RealVector, RealMatrix> evaluate(long[] sizes, long[] reps, double[] loopNs, RealVector p) {
        double c = p.getEntry(0), br = p.getEntry(1), t1 = p.getEntry(2);
        MultiPairModel model = new MultiPairModel(c, br, t1);
        int m = sizes.length;
        RealVector value = new ArrayRealVector(m);
        RealMatrix jacobian = new Array2DRowRealMatrix(m, 3);
        for (int i = 0; i < m; i++) {
            double x = sizes[i], t = loopNs[i];
            long n = reps[i];
            value.setEntry(i, model.loopTimeNs(x, n) / t - 1);
            // x >= C: T_p / beta = C / B_r, so dT/dC = -(2n - 1)/B_r; below C it does not depend on C
            jacobian.setEntry(i, 0, x >= c ? -(2.0 * n - 1) / br / t : 0);
            double g = x * (4.0 * n - (2.0 * n - 1) / MultiPairModel.chunks(x, c));
            jacobian.setEntry(i, 1, -g / (br * br) / t);
            jacobian.setEntry(i, 2, (4.0 * n - 1) / t);
        }
        return new Pair<>(value, jacobian);
    }
}
