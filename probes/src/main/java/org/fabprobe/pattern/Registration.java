package org.fabprobe.pattern;

import java.lang.foreign.MemorySegment;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.FreshPages;
import org.fabprobe.transport.Registrar;

/**
 * The registration timing loop of `fabprobe register`, one process, no peer. Per size:
 * <ul>
 * <li>first registration: each repetition maps fresh pages (never touched), times the
 *     registration and then the deregistration, and unmaps them;</li>
 * <li>re-registration: one buffer, registered and deregistered once untimed, then each
 *     repetition times registering it again and deregistering it (what a registration cache
 *     can answer from memory).</li>
 * </ul>
 * Each size's memory is mapped while it is measured and unmapped before the next: 1 GiB
 * sizes never hold more than one (or two, during a first registration) buffer at once.
 */
public final class Registration {
    private final long[] sizes;
    private final int repetitions;

    /** The times of one size, ns, one sample per repetition. */
    public record Size(long sizeBytes, double[] firstRegisterNs, double[] firstDeregisterNs, double[] registerNs,
                       double[] deregisterNs) {}

    public Registration(long[] sizes, int repetitions) {
        if (repetitions < 1) throw new IllegalArgumentException("--reps must be at least 1");
        for (long s : sizes) if (s < 1) throw new IllegalArgumentException("register: sizes start at 1 B");
        this.sizes = sizes.clone();
        this.repetitions = repetitions;
    }

    /** Times every size with {@code registrar}; {@code done} hears of each size as it ends. */
    public Size[] measure(Registrar registrar, java.util.function.IntConsumer done) {
        warmUp(registrar);
        Size[] out = new Size[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            out[i] = measure(registrar, sizes[i]);
            done.accept(i);
        }
        return out;
    }

    /** The library's first registration of a process sets up its tables and the JIT its call sites: untimed. */
    private static void warmUp(Registrar registrar) {
        for (int i = 0; i < 50; i++) {
            try (FreshPages p = new FreshPages(4096)) {
                registrar.deregister(registrar.register(p.segment()));
            }
        }
    }

    private Size measure(Registrar registrar, long bytes) {
        double[] firstReg = new double[repetitions], firstDereg = new double[repetitions];
        double[] reReg = new double[repetitions], reDereg = new double[repetitions];
        for (int r = 0; r < repetitions; r++) {
            try (FreshPages p = new FreshPages(bytes)) {
                timeOnce(registrar, p.segment(), firstReg, firstDereg, r);
            }
        }
        try (FreshPages p = new FreshPages(bytes)) {
            registrar.deregister(registrar.register(p.segment()));
            for (int r = 0; r < repetitions; r++) timeOnce(registrar, p.segment(), reReg, reDereg, r);
        }
        return new Size(bytes, firstReg, firstDereg, reReg, reDereg);
    }

    /** One registration and deregistration of {@code segment}, their times into slot {@code r}. */
    private static void timeOnce(Registrar registrar, MemorySegment segment, double[] reg, double[] dereg,
                                 int r) {
        long t0 = Clock.now();
        long handle = registrar.register(segment);
        long t1 = Clock.now();
        registrar.deregister(handle);
        long t2 = Clock.now();
        reg[r] = Clock.toNs(t1 - t0);
        dereg[r] = Clock.toNs(t2 - t1);
    }
}
