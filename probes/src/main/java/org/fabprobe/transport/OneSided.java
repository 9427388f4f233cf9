package org.fabprobe.transport;

/**
 * One-sided operations a transport may offer beside its messages ({@link Transport}): the
 * peer's receive buffer is the target of writes, reads and 64-bit atomics, the local send
 * buffer their source (and a read's destination, an atomic's operand and result words).
 *
 * <p>Both sides describe their receive buffer ({@link #describeRegion}: address or offset and
 * packed key, as the library wants it) and hand the description to the other side over the
 * untimed control channel ({@link #attachPeerRegion}) before anything is timed. Operations
 * complete in posting order as counted by {@link #oneSidedCompleted}, found by
 * {@link Transport#progress}; nothing on this path allocates.
 */
public interface OneSided {

    /** This transport's receive buffer as the peer needs it to address it. */
    byte[] describeRegion();

    /** Makes the peer's receive buffer, as it described it, the target of every operation. */
    void attachPeerRegion(byte[] description);

    /**
     * Writes the send buffer's first {@code bytes} (at least 1) to the same place in the peer's
     * receive buffer so that the last byte lands after all others: the peer polls it as the
     * message's flag. How the library is made to keep that order is {@link #writeOrdering}.
     */
    void postWrite(long bytes);

    /** How {@link #postWrite} keeps the flag byte after the payload, in words, for the record. */
    String writeOrdering();

    /**
     * Writes the send buffer's first {@code bytes} to the same place in the peer's receive
     * buffer in no particular order with other writes: one operation, for bandwidth. Where a
     * transport has nothing cheaper, its ordered {@link #postWrite}.
     */
    default void postWriteUnordered(long bytes) {
        postWrite(bytes);
    }

    /**
     * Makes every write posted so far complete at the target once this completes (one more
     * operation in the counts), where an operation's own completion does not say so already;
     * elsewhere nothing. {@link #flushing} says what it does here.
     */
    default void postFlush() {}

    /** Whether an unordered write or read completes only at the next {@link #postFlush} (MPI's puts and gets), not by progress. */
    default boolean completesOnlyAtFlush() {
        return false;
    }

    /** What {@link #postFlush} does here, in words, for the record. */
    default String flushing() {
        return "nothing: a write's completion means it is complete at the target";
    }

    /** Reads the peer's first {@code bytes} into the send buffer; complete once {@link #oneSidedCompleted} counts it. */
    void postRead(long bytes);

    /**
     * A read as one operation of a window or train: where {@link #completesOnlyAtFlush}, it
     * completes only at the next {@link #postFlush} (MPI_Get without its MPI_Win_flush), elsewhere
     * as {@link #postRead}.
     */
    default void postReadUnordered(long bytes) {
        postRead(bytes);
    }

    /** Adds {@code value} to the peer's first 8 bytes; the old value goes to {@link #fetched}. */
    void postFetchAdd(long value);

    /** Compare-and-swap on the peer's first 8 bytes; the old value goes to {@link #fetched}. */
    void postCompareSwap(long compare, long swap);

    /** The value the last completed atomic fetched. */
    long fetched();

    /** One-sided operations posted since open, those a write makes inside {@link #postWrite} included. */
    long oneSidedPosted();

    /** One-sided operations completed since open (locally: a write's source is reusable, a read's data is here). */
    long oneSidedCompleted();

    /**
     * Whether a write by the peer lands in this side's memory only while this side calls into
     * the library (manual progress, emulated operations); where not, a side polling its flag
     * byte need not call {@link Transport#progress} on every look, as ucx_perftest's put_lat
     * does not: each call touches the library's shared queues, which the peer's writes then wait for.
     */
    default boolean writesNeedTargetProgress() {
        return true;
    }

    /**
     * Bounds how long a post retries while the library's queues are full (its EAGAIN: the peer
     * not draining) to {@code ns} before it throws a timeout; 0 restores the session's timeout.
     * Where posts never wait, nothing.
     */
    default void postRetryLimit(long ns) {}

    /** Whether the library carries out {@code op} in software with the target's CPU (its progress) here. */
    default boolean emulated(Op op) {
        return false;
    }
}
