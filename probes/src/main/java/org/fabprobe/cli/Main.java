package org.fabprobe.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.bindings.NativeEnvironment;
import org.fabprobe.launch.Leftovers;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.launch.LocalMirror;
import org.fabprobe.launch.MirrorServer;
import org.fabprobe.launch.Session;
import org.fabprobe.runtime.Interrupts;
import org.fabprobe.runtime.Shutdown;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.mpi.MpiWorld;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** fabprobe: the LogP family of interconnect parameters, raw and through MPI. */
@Command(name = "fabprobe", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Measures how an interconnect really behaves (latency, overheads, gaps) "
                + "on libfabric providers, UCX transports and MPI.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:success",
                "1:an acceptance check failed",
                "2:bad command line",
                "3:unknown transport (the available ones are listed)",
                "4:impossible on this transport (e.g. size above max_msg_size)",
                "5:peer timed out or died",
                "6:transport error (decoded libfabric/UCX message)",
                "7:missing native library",
                "8:the mirror refused the session (authentication, protocol version, busy)",
                "9:an output file could not be written (disk full, ...)",
                "130:interrupted",
                "143:terminated by SIGTERM"})
public final class Main {
    /**
     * The subcommands in the order help lists them. A run registers only the one it names:
     * picocli builds every registered command's model up front, and building all of them
     * took about three times as long as one (0.25-0.4 s of a cold start).
     */
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("providers", ProvidersCommand::new);
        m.put("clock", ClockCommand::new);
        m.put("pingpong", PingPongCommand::new);
        m.put("bandwidth", BandwidthCommand::new);
        m.put("loggp", LogGPCommand::new);
        m.put("plogp", PLogPCommand::new);
        m.put("signature", SignatureCommand::new);
        m.put("compare", CompareCommand::new);
        m.put("collectives", CollectivesCommand::new);
        m.put("multipair", MultiPairCommand::new);
        m.put("matrix", MatrixCommand::new);
        m.put("register", RegisterCommand::new);
        m.put("accept", AcceptCommand::new);
        m.put("mirror", MirrorCommand::new);
        m.put("secret", SecretCommand::new);
        return m;
    }

    /** The command line for {@code args}: only the subcommand it names, or all of them (help, a typo). */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new Main());
        Supplier<Object> named = args.length > 0 ? SUBCOMMANDS.get(args[0]) : null;
        if (named != null) {
            cli.addSubcommand(args[0], named.get());
        } else {
            SUBCOMMANDS.forEach((name, command) -> cli.addSubcommand(name, command.get()));
            cli.addSubcommand("help", new CommandLine.HelpCommand());
        }
        return cli;
    }

    public static void main(String[] args) {
        NativeEnvironment.prepare(); // before any native library is loaded
        Interrupts.honourIgnored(); // kill -INT stops a background job's run too
        int code = run(args);
        System.out.flush();
        Shutdown.finished(); // a signal's shutdown hook waits for this, not longer
        System.exit(code);
    }

    /** Runs the command line and returns the exit code (tests call this directly). */
    public static int run(String... args) {
        NativeEnvironment.prepare();
        Shutdown.beforeForcedExit(Leftovers::removeMine); // a stuck transport's shared-memory files go with a forced exit
        if (args.length > 0 && args[0].equals("mirror")) MirrorServer.initializeAnnouncedTransport(); // before picocli's start-up
        if (LocalMirror.isChild(args)) {
            try {
                return LocalMirror.serveChild();
            } catch (RuntimeException e) {
                return report(e);
            }
        }
        CommandLine cli = commandLine(args);
        cli.setParameterExceptionHandler((e, arguments) -> usageError(e, arguments));
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> report(e));
        cli.setExecutionStrategy(parsed -> {
            java.util.Optional<Integer> done;
            try {
                done = meetingFirst(parsed, args);
            } catch (RuntimeException e) {
                return report(e);
            }
            return done.isPresent() ? done.get() : new CommandLine.RunLast().execute(parsed);
        });
        depth++;
        String[] outer = ARGS.get();
        ARGS.set(args);
        try {
            return cli.execute(args);
        } catch (LinkageError e) { // a binding class whose library failed to load: picocli passes Errors through
            return report(e);
        } finally {
            ARGS.set(outer);
            LocalMirror.discardPrestarted(); // if this run did not meet it
            if (--depth == 0) leaveMpi();
        }
    }

    /**
     * A pair command over MPI in local mode: this same command line as two ranks. They print
     * their result, or reply it when a caller in this process measures ({@link Delivery}).
     */
    private static int runAsTwoRanks(String[] args, MpiSelection selection) {
        if (!Delivery.measuring()) return LocalLauncher.run(args, selection, 2, false, System.out, System.err).exitCode();
        String reply = LocalLauncher.runForReply(args, selection, 2, System.out, System.err);
        Delivery.handOver(Delivery.read(args[0], reply));
        return ExitCode.OK;
    }

    /** The command line of the run in progress on this thread (compare's runs nest in its own). */
    private static final ThreadLocal<String[]> ARGS = new ThreadLocal<>();

    /** The command line being run: what {@link LocalLauncher} gives the ranks it starts for this command. */
    static String[] currentArgs() {
        return ARGS.get().clone();
    }

    /**
     * For a parsed command that meets a mirror: checks it, then either runs it as two MPI ranks
     * (an {@code mpi:} transport in local mode) or starts its local mirror, whose JVM starts
     * while this one loads the command and the transport; a bad command line starts nothing.
     * Returns the exit code when the command line is refused or ran as ranks, else empty.
     */
    private static java.util.Optional<Integer> meetingFirst(CommandLine.ParseResult parsed, String[] args) {
        CommandLine.ParseResult last = parsed;
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.isUsageHelpRequested() || p.isVersionHelpRequested()) return java.util.Optional.empty(); // help runs no command
            last = p;
        }
        if (!(last.commandSpec().userObject() instanceof MeetsMirror command)) return java.util.Optional.empty();
        command.session().check();
        command.check();
        String transport = command.session().transport;
        if (TransportName.isMpiSelection(transport) && !LocalLauncher.underLauncher()) {
            return java.util.Optional.of(runAsTwoRanks(args, MpiSelection.parse(transport)));
        }
        if (command.session().peer == null) LocalMirror.prestart(transport);
        return java.util.Optional.empty();
    }

    /** One line and where to read more: picocli's whole usage after the error buries the mistake. */
    static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine where = e.getCommandLine();
        if (args.length == 0) { // a bare 'fabprobe': the usage is the answer
            System.err.println("fabprobe: name a command");
            where.usage(System.err);
            return ExitCode.USAGE;
        }
        String hint = "see '" + where.getCommandSpec().qualifiedName() + " --help'";
        String message;
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String argument = u.getUnmatched().get(0);
            List<String> suggestions = u.getSuggestions();
            String what = u.isUnknownOption() ? "option" : where.getSubcommands().isEmpty() ? "argument" : "command";
            if (!suggestions.isEmpty()) hint = "did you mean '" + suggestions.get(0) + "'? " + hint;
            message = "unknown " + what + " '" + argument + "'";
        } else {
            String text = String.valueOf(e.getMessage()).replaceFirst("\\.$", "");
            message = text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
        }
        System.err.println("fabprobe: " + message + " (" + hint + ")");
        return ExitCode.USAGE;
    }

    /** Nested runs (compare runs two commands) share MPI; only the outermost leaves it. */
    private static int depth;

    /** Every rank leaves MPI once, at the very end (several runs may share it: compare under a launcher). */
    private static void leaveMpi() {
        try {
            MpiWorld.leave();
        } catch (RuntimeException e) {
            System.err.println("fabprobe: leaving MPI: " + e.getMessage());
        }
    }

    /** One line on stderr and a distinct exit code, never a stack trace. */
    static int report(Throwable e) {
        if (e instanceof Session.NotMeasure) return ExitCode.OK; // a launcher's mirror or idle rank: nothing to say
        if (e instanceof LocalLauncher.RanksFailed f) { // the ranks printed why
            Delivery.noteError(f.getMessage());
            return f.exitCode();
        }
        org.fabprobe.Progress.end(); // the error line starts on a clean line
        String missing = missingLibrary(e);
        if (missing != null) { // before the IllegalArgumentException test: libraryLookup throws one
            System.err.println("fabprobe: native library missing: " + missing + installHint(missing));
            Delivery.noteError("native library missing: " + missing);
            if (Boolean.getBoolean("fabprobe.debug")) e.printStackTrace();
            return ExitCode.MISSING_DEPENDENCY;
        }
        Throwable cause = e;
        while ((cause instanceof RuntimeException || cause instanceof ExceptionInInitializerError)
                && !(cause instanceof FabprobeException) && cause.getCause() != null) {
            if (cause instanceof IllegalArgumentException) break;
            cause = cause.getCause();
        }
        int code;
        String message;
        if (cause instanceof FabprobeException f) {
            code = f.exitCode();
            message = f.getMessage();
        } else if (cause instanceof IllegalArgumentException) {
            code = ExitCode.USAGE;
            message = cause.getMessage();
        } else {
            code = ExitCode.TRANSPORT_ERROR;
            message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }
        System.err.println("fabprobe: " + message);
        Delivery.noteError(message);
        if (Boolean.getBoolean("fabprobe.debug")) e.printStackTrace();
        return code;
    }

    private static final java.util.regex.Pattern CANNOT_OPEN = java.util.regex.Pattern.compile("Cannot open library: \\S+");

    /**
     * What failed to load, if a native library did, anywhere in the cause chain:
     * SymbolLookup.libraryLookup's IllegalArgumentException("Cannot open library: ..."), usually
     * inside the binding class's ExceptionInInitializerError (or, on a later use of that class,
     * a NoClassDefFoundError whose cause quotes it: the class may have failed in the background
     * thread that initializes the library early), or an UnsatisfiedLinkError.
     */
    static String missingLibrary(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UnsatisfiedLinkError) return t.getMessage();
            java.util.regex.Matcher m = CANNOT_OPEN.matcher(String.valueOf(t.getMessage()));
            if (m.find()) return m.group();
        }
        return null;
    }

    /** The Debian package that holds the library named in {@code message}. */
    private static String installHint(String message) {
        String m = String.valueOf(message);
        if (m.contains("libfabric")) return " (install libfabric1, see README)";
        if (m.contains("libuc")) return " (install libucx0, see README)";
        if (m.contains("libmpich")) return " (install libmpich12, see README)";
        if (m.contains("libmpi")) return " (install libopenmpi3, see README)";
        return " (see README for the Debian packages)";
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"fabprobe " + version(), "JVM " + Runtime.version()};
        }
    }

    static String version() {
        return org.fabprobe.api.Fabprobe.version();
    }
}
