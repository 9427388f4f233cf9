package org.fabprobe.bindings.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

/** The machine-code callbacks, called as UCX calls them: each writes the request's first word, nothing else. */
class UcpCompletionTest {
    private static final Linker LINKER = Linker.nativeLinker();

    @Test
    void availableOnX8664() {
        String arch = System.getProperty("os.arch");
        assertEquals(arch.equals("amd64") || arch.equals("x86_64"), UcpCompletion.available());
    }

    @Test
    void receiveCallbackStoresTheStatusInTheRequest() throws Throwable {
        assumeTrue(UcpCompletion.available());
        MethodHandle recv = LINKER.downcallHandle(UcpCompletion.completionCallback(),
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = filled(arena);
            MemorySegment request = block.asSlice(8);
            MemorySegment info = arena.allocate(64), user = arena.allocate(8);
            recv.invokeExact(request, 0, info, user);
            assertEquals(0, request.get(JAVA_INT, 0));
            recv.invokeExact(request, -16, info, user); // UCS_ERR_CANCELED
            assertEquals(-16, request.get(JAVA_INT, 0));
            assertOnlyStatusWritten(block);
            assertEquals(0, user.get(JAVA_INT, 0), "user_data untouched");
        }
    }

    @Test
    void sendCallbackStoresTheStatusInTheRequest() throws Throwable {
        assumeTrue(UcpCompletion.available());
        MethodHandle send = LINKER.downcallHandle(UcpCompletion.completionCallback(), FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = filled(arena);
            MemorySegment request = block.asSlice(8);
            send.invokeExact(request, -3, MemorySegment.NULL); // UCS_ERR_NO_MESSAGE
            assertEquals(-3, request.get(JAVA_INT, 0));
            assertOnlyStatusWritten(block);
        }
    }

    @Test
    void initCallbackMarksARequestInProgress() throws Throwable {
        assumeTrue(UcpCompletion.available());
        MethodHandle init = LINKER.downcallHandle(UcpCompletion.initCallback(), FunctionDescriptor.ofVoid(ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = filled(arena);
            MemorySegment request = block.asSlice(8);
            init.invokeExact(request);
            assertEquals(UcpCompletion.IN_PROGRESS, request.get(JAVA_INT, 0));
            assertEquals(Ucs.INPROGRESS, (byte) request.get(JAVA_INT, 0));
            assertOnlyStatusWritten(block);
        }
    }

    /** 24 bytes of 0x5A; the request word is bytes 8..11. */
    private static MemorySegment filled(Arena arena) {
        MemorySegment block = arena.allocate(24, 8);
        block.fill((byte) 0x5A);
        return block;
    }

    private static void assertOnlyStatusWritten(MemorySegment block) {
        for (int i = 0; i < block.byteSize(); i++) {
            if (i < 8 || i >= 12) assertEquals((byte) 0x5A, block.get(JAVA_BYTE, i), "byte " + i);
        }
    }
}
