package org.fabprobe.bindings.ucx;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.ucx.gen.Ucx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The re-created UCS/UCP macros and inlines, against the real libucs/libucp. */
class UcsTest {
    @BeforeAll
    static void environment() {
        NativeEnvironment.prepare();
    }

    @Test
    void statusIsASignedByteAndDecodes() {
        assertEquals(0, Ucs.OK);
        assertEquals(1, Ucs.INPROGRESS);
        byte noDevice = (byte) Ucx.UCS_ERR_NO_DEVICE();
        assertTrue(noDevice < 0);
        assertEquals("No such device", Ucs.string(noDevice));
        UcxException e = assertThrows(UcxException.class, () -> Ucs.check(noDevice, "ucp_init"));
        assertTrue(e.getMessage().startsWith("ucp_init failed: No such device"), e.getMessage());
    }

    @Test
    void pointerMacrosMatchTheCDefinitions() {
        long errorPointer = (long) (byte) Ucx.UCS_ERR_NO_MEMORY(); // UCS_STATUS_PTR: sign-extended
        assertTrue(Ucs.ptrIsErr(errorPointer));
        assertFalse(Ucs.ptrIsPtr(errorPointer));
        assertEquals((byte) Ucx.UCS_ERR_NO_MEMORY(), Ucs.ptrStatus(errorPointer));
        assertFalse(Ucs.ptrIsErr(0));
        assertFalse(Ucs.ptrIsPtr(0)); // NULL = completed at once
        assertEquals(Ucs.OK, Ucs.ptrStatus(0));
        long request = 0x7f00_1234_5678L;
        assertTrue(Ucs.ptrIsPtr(request));
        assertFalse(Ucs.ptrIsErr(request));
        assertEquals(Ucs.INPROGRESS, Ucs.ptrStatus(request));
    }

    @Test
    void contigDatatypeAndVersion() {
        assertEquals((1L << Ucx.UCP_DATATYPE_SHIFT()) | Ucx.UCP_DATATYPE_CONTIG(), Ucp.dtMakeContig(1));
        assertTrue(Ucp.version().startsWith("1."), Ucp.version());
    }

    @Test
    void resourcesIncludeLoopbackTcpAndSharedMemory() {
        List<UcpResources.Resource> resources = UcpResources.list();
        assertTrue(resources.contains(new UcpResources.Resource("tcp", "lo")), resources::toString);
        assertTrue(resources.stream().anyMatch(r -> r.transport().equals("posix")), resources::toString);
    }

    @Test
    void parsesPrintInfoResourceLines() {
        String info = "#      resource 2  :  md 1  dev 2  flags -- tcp/lo\n#      resource 5  :  md 4  dev 3  flags -- cma/memory\n";
        assertEquals(List.of(new UcpResources.Resource("tcp", "lo"), new UcpResources.Resource("cma", "memory")),
                UcpResources.parse(info));
    }
}
