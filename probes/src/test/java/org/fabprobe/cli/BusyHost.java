package org.fabprobe.cli;

import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * For tests whose figures need the CPUs they spin on: a failed assertion while other work held
 * the host's CPUs through the whole test ({@link HostPressure}) is no evidence either way, and
 * the test is aborted (reported skipped, with the miss) instead of failed. On a host with CPUs
 * for the test every failure still fails.
 */
final class BusyHost implements BeforeTestExecutionCallback, TestExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(BusyHost.class);

    @Override
    public void beforeTestExecution(ExtensionContext context) {
        context.getStore(NAMESPACE).put("pressure", HostPressure.start());
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        HostPressure pressure = context.getStore(NAMESPACE).get("pressure", HostPressure.class);
        String busy = pressure == null ? null : pressure.busy();
        if (busy == null || !(thrown instanceof AssertionError)) throw thrown;
        String miss = thrown.getMessage() == null ? "" : String.join(" / ", thrown.getMessage().lines().limit(3).toList());
        throw new TestAbortedException("the host was busy through this test (" + busy + "): no evidence either way; " + miss, thrown);
    }
}
