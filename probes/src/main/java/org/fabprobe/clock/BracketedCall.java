package org.fabprobe.clock;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.fabprobe.bindings.ExecutablePage;

/**
 * A native function timed as a C benchmark times it, {@code t0 = rdtsc(); f(...); t1 = rdtsc()}:
 * the two time-stamp-counter reads are made by machine code of fabprobe's own right around the
 * call, so no Java code and no downcall stub lies inside the interval. Timed from Java, MPI_Send
 * of 0 B read 31-35 ns where the same call bracketed in C reads 24-27 ns (ob1:vader).
 *
 * <p>The function takes up to six integer or pointer arguments and returns an int (the MPI
 * calls). The call is a critical downcall, as the hot paths' are: it must not call back into
 * Java. {@link #emptyNs} is what the bracket itself adds: subtract it, as the C benchmarks
 * subtract their clock's overhead.
 *
 * <p>Only where {@link Clock} reads the TSC: {@link #of} is empty otherwise (and where the page
 * cannot be mapped), and the caller times in Java as before.
 */
public final class BracketedCall {
    /**
     * x86-64 System V; the argument is a block of nine longs: function, six arguments, then
     * the two reads, written by the code.
     * <pre>
     * push rbx; push r12; push r13          ; callee-saved; leaves the stack 16-byte aligned
     * mov rbx, rdi                          ; the block
     * mov rdi, [rbx+8]; mov rsi, [rbx+16]; mov rcx, [rbx+32]; mov r8, [rbx+40]; mov r9, [rbx+48]
     * rdtsc; shl rdx, 32; or rax, rdx; mov r12, rax
     * mov rdx, [rbx+24]                     ; rdtsc overwrote rdx, the third argument
     * call [rbx]
     * mov r13d, eax
     * rdtsc; shl rdx, 32; or rax, rdx
     * mov [rbx+56], r12; mov [rbx+64], rax
     * mov eax, r13d; pop r13; pop r12; pop rbx; ret
     * empty: xor eax, eax; ret              ; at EMPTY_OFFSET: the function that measures the bracket
     * </pre>
     */
    private static final byte[] CODE = {
            0x53, 0x41, 0x54, 0x41, 0x55, 0x48, (byte) 0x89, (byte) 0xfb,
            0x48, (byte) 0x8b, 0x7b, 0x08, 0x48, (byte) 0x8b, 0x73, 0x10, 0x48, (byte) 0x8b, 0x4b, 0x20,
            0x4c, (byte) 0x8b, 0x43, 0x28, 0x4c, (byte) 0x8b, 0x4b, 0x30,
            0x0f, 0x31, 0x48, (byte) 0xc1, (byte) 0xe2, 0x20, 0x48, 0x09, (byte) 0xd0, 0x49, (byte) 0x89, (byte) 0xc4,
            0x48, (byte) 0x8b, 0x53, 0x18,
            (byte) 0xff, 0x13,
            0x41, (byte) 0x89, (byte) 0xc5,
            0x0f, 0x31, 0x48, (byte) 0xc1, (byte) 0xe2, 0x20, 0x48, 0x09, (byte) 0xd0,
            0x4c, (byte) 0x89, 0x63, 0x38, 0x48, (byte) 0x89, 0x43, 0x40,
            0x44, (byte) 0x89, (byte) 0xe8, 0x41, 0x5d, 0x41, 0x5c, 0x5b, (byte) 0xc3,
            0x31, (byte) 0xc0, (byte) 0xc3};
    private static final int EMPTY_OFFSET = 0x4b;
    private static final long FUNCTION = 0, ARGUMENTS = 8, START = 56, END = 64, BLOCK_BYTES = 72;
    private static final int MAX_ARGUMENTS = 6;
    /** emptyNs: the cheapest mean of batches of empty brackets, as TICK1 takes the cheapest batch. */
    private static final int EMPTY_BATCHES = 200, EMPTY_BATCH = 500;

    /** The bracket code, or null where it cannot run (then {@link #of} is empty). */
    private static final MethodHandle BRACKET;
    private static final MemorySegment EMPTY_FUNCTION;

    static {
        MethodHandle bracket = null;
        MemorySegment empty = null;
        if (Clock.usesTsc()) {
            try {
                MemorySegment page = ExecutablePage.map(CODE);
                bracket = Linker.nativeLinker().downcallHandle(page, FunctionDescriptor.of(JAVA_INT, JAVA_LONG),
                        Linker.Option.critical(false));
                empty = MemorySegment.ofAddress(page.address() + EMPTY_OFFSET);
            } catch (Throwable t) {
                bracket = null; // Clock mapped its page, so this is unexpected: time in Java instead
            }
        }
        BRACKET = bracket;
        EMPTY_FUNCTION = empty;
    }

    private final MemorySegment block;
    private final long blockAddress;

    private BracketedCall(MemorySegment function, long[] arguments, Arena arena) {
        if (arguments.length > MAX_ARGUMENTS) throw new IllegalArgumentException("at most six arguments");
        block = arena.allocate(BLOCK_BYTES, 64); // its own cache line
        blockAddress = block.address();
        block.set(JAVA_LONG, FUNCTION, function.address());
        for (int i = 0; i < arguments.length; i++) argument(i, arguments[i]);
    }

    /** A bracket around {@code function}, its memory from {@code arena}; empty where Clock does not read the TSC. */
    public static Optional<BracketedCall> of(MemorySegment function, long[] arguments, Arena arena) {
        return BRACKET == null ? Optional.empty() : Optional.of(new BracketedCall(function, arguments, arena));
    }

    /** Sets argument {@code index} (0-based) for the following calls. */
    public void argument(int index, long value) {
        block.set(JAVA_LONG, ARGUMENTS + 8L * index, value);
    }

    /** Calls the function between two clock reads; returns its result. */
    public int call() {
        try {
            return (int) BRACKET.invokeExact(blockAddress);
        } catch (Throwable t) {
            throw new AssertionError(t); // the code and the MPI calls it makes do not throw
        }
    }

    /** The clock read just before the last call, in {@link Clock} ticks. */
    public long startTicks() {
        return block.get(JAVA_LONG, START);
    }

    /** The clock read just after the last call returned. */
    public long endTicks() {
        return block.get(JAVA_LONG, END);
    }

    /** What an empty bracket reads (the two clock reads, the call and return), ns; NaN where there is no bracket. */
    public static double emptyNs() {
        return BRACKET == null ? Double.NaN : Empty.NS;
    }

    /** Holder: measured on first use (about 1 ms), then cached. */
    private static final class Empty {
        static final double NS = measure();

        private static double measure() {
            try (Arena arena = Arena.ofConfined()) {
                BracketedCall empty = new BracketedCall(EMPTY_FUNCTION, new long[0], arena);
                long best = Long.MAX_VALUE;
                for (int batch = 0; batch < EMPTY_BATCHES; batch++) {
                    long sum = 0;
                    for (int i = 0; i < EMPTY_BATCH; i++) {
                        empty.call();
                        sum += empty.endTicks() - empty.startTicks();
                    }
                    best = Math.min(best, sum);
                }
                return Clock.toNs(best) / EMPTY_BATCH;
            }
        }
    }
}
