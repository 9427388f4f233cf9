package org.fabprobe.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.transport.mpi.MpiSelection;

/**
 * Local mode for {@code mpi:...}: runs this very command line as 2 ranks under the MPI's own
 * launcher (mpirun.openmpi / mpiexec.mpich), relays their output and returns rank 0's exit
 * code. Ranks set their MPI environment themselves ({@link MpiSelection}).
 */
public final class MpiLauncher {
    private MpiLauncher() {}

    /** True inside a rank started by mpirun / mpiexec (Open MPI, MPICH Hydra, PMIx) or srun. */
    public static boolean underLauncher() {
        return Launcher.detect() != null;
    }

    /** The value of -t / --transport on a command line, or null. */
    public static String transportArgument(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if ((a.equals("-t") || a.equals("--transport")) && i + 1 < args.length) return args[i + 1];
            if (a.startsWith("--transport=")) return a.substring("--transport=".length());
            if (a.startsWith("-t") && a.length() > 2 && !a.startsWith("--")) return a.substring(2);
        }
        return null;
    }

    /** Runs {@code args} as ranks 0 and 1 and returns the launcher's exit code. */
    public static int relaunch(String[] args, MpiSelection selection, PrintStream out, PrintStream err) {
        return relaunch(args, selection, 2, out, err);
    }

    /** Runs {@code args} as {@code ranks} ranks (collectives: one launch per p) and returns the launcher's exit code. */
    public static int relaunch(String[] args, MpiSelection selection, int ranks, PrintStream out, PrintStream err) {
        List<String> cmd = launcherCommand(selection.implementation(), ranks);
        cmd.addAll(ThisJvm.command());
        cmd.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(cmd);
        NativeEnvironment.REQUIRED.forEach(builder.environment()::putIfAbsent);
        if (selection.implementation() == Mpi.Implementation.OPENMPI && isRoot()) {
            builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
            builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        }
        try {
            Process process = builder.start();
            try (Shutdown.Guard guard = Shutdown.guard(Thread.currentThread(), () -> process.descendants().forEach(ProcessHandle::destroyForcibly))) {
                Thread o = relay(process.getInputStream(), out);
                Thread e = relay(process.getErrorStream(), err);
                int code = process.waitFor();
                o.join();
                e.join();
                // Ctrl-C reaches the launcher and the ranks too: their exit code is the launcher's, not ours
                if (Shutdown.requested()) throw Shutdown.interrupted();
                return code;
            }
        } catch (IOException e) {
            throw new FabprobeException(ExitCode.MISSING_DEPENDENCY, "cannot start " + cmd.getFirst() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Shutdown.interrupted();
        }
    }

    private static List<String> launcherCommand(Mpi.Implementation impl, int ranks) {
        List<String> cmd = new ArrayList<>();
        if (impl == Mpi.Implementation.OPENMPI) {
            cmd.add(find(impl, "mpirun.openmpi", "orterun"));
            // both ranks pin themselves (--cpu options); the MPI must not bind them first
            cmd.addAll(List.of("-np", Integer.toString(ranks), "--oversubscribe", "--bind-to", "none"));
            for (String name : NativeEnvironment.REQUIRED.keySet()) cmd.addAll(List.of("-x", name));
        } else {
            cmd.add(find(impl, "mpiexec.mpich", "mpirun.mpich"));
            cmd.addAll(List.of("-n", Integer.toString(ranks))); // Hydra passes the whole environment on
        }
        return cmd;
    }

    private static String find(Mpi.Implementation impl, String... names) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            for (String name : names) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(p)) return p.toString();
            }
        }
        throw new FabprobeException(ExitCode.MISSING_DEPENDENCY, "mpi:" + impl.id + ": not running under an MPI launcher"
                + " and no " + String.join(" or ", names) + " on PATH (install "
                + (impl == Mpi.Implementation.OPENMPI ? "openmpi-bin" : "mpich") + ", or start fabprobe with mpirun/srun)");
    }

    private static boolean isRoot() {
        try {
            return "0".equals(String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid")));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private static Thread relay(InputStream in, OutputStream out) {
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            try (in) {
                in.transferTo(out);
                out.flush();
            } catch (IOException ignored) {
                // the launcher went away; its exit code tells the story
            }
        });
        return t;
    }
}
