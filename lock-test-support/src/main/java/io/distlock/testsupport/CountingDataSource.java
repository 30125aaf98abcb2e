package io.distlock.testsupport;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Counts what goes through a data source, to prove how many round trips an operation costs: SQL statements executed
 * (a batch counts once), transaction ends ({@code commit}/{@code rollback}) and connection-state changes
 * ({@code setAutoCommit}, {@code setTransactionIsolation}, {@code setReadOnly}), which some drivers turn into round
 * trips of their own; and errors, the statements and transaction ends that the database refused with an
 * {@link SQLException} (each one an error the server logs, whether or not the caller handles it). Counting costs a
 * proxy call per JDBC call: keep it away from timed runs.
 */
public final class CountingDataSource extends DelegatingDataSource {

    private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate",
            "executeLargeUpdate", "executeBatch", "executeLargeBatch");

    private static final Set<String> STATE_CHANGES = Set.of("setAutoCommit", "setTransactionIsolation", "setReadOnly");

    private final LongAdder statements = new LongAdder();

    private final LongAdder transactionEnds = new LongAdder();

    private final LongAdder stateChanges = new LongAdder();

    private final LongAdder errors = new LongAdder();

    /**
     * Wraps a data source.
     *
     * @param target the data source that does the work
     */
    public CountingDataSource(DataSource target) {
        super(target);
    }

    /** @return SQL statements executed since creation or the last {@link #reset()} */
    public int statements() {
        return statements.intValue();
    }

    /** @return commits and rollbacks since creation or the last {@link #reset()} */
    public int transactionEnds() {
        return transactionEnds.intValue();
    }

    /** @return connection-state changes since creation or the last {@link #reset()} */
    public int stateChanges() {
        return stateChanges.intValue();
    }

    /**
     * @return statements and transaction ends that threw an {@link SQLException} since creation or the last
     *     {@link #reset()}
     */
    public int errors() {
        return errors.intValue();
    }

    /** Starts counting from zero. */
    public void reset() {
        statements.reset();
        transactionEnds.reset();
        stateChanges.reset();
        errors.reset();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return proxy(Connection.class, super.getConnection(), this::onConnectionCall);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return proxy(Connection.class, super.getConnection(username, password), this::onConnectionCall);
    }

    private Object onConnectionCall(Object target, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        boolean transactionEnd = name.equals("commit") || name.equals("rollback");
        if (transactionEnd) {
            transactionEnds.increment();
        }
        else if (STATE_CHANGES.contains(name)) {
            stateChanges.increment();
        }
        Object result = transactionEnd ? counted(target, method, args) : invoke(target, method, args);
        if (result instanceof CallableStatement statement) {
            return proxy(CallableStatement.class, statement, this::onStatementCall);
        }
        if (result instanceof PreparedStatement statement) {
            return proxy(PreparedStatement.class, statement, this::onStatementCall);
        }
        if (result instanceof Statement statement && name.equals("createStatement")) {
            return proxy(Statement.class, statement, this::onStatementCall);
        }
        return result;
    }

    private Object onStatementCall(Object target, Method method, Object[] args) throws Throwable {
        if (EXECUTIONS.contains(method.getName())) {
            statements.increment();
            return counted(target, method, args);
        }
        return invoke(target, method, args);
    }

    private Object counted(Object target, Method method, Object[] args) throws Throwable {
        try {
            return invoke(target, method, args);
        }
        catch (SQLException ex) {
            errors.increment();
            throw ex;
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (InvocationTargetException ex) {
            throw ex.getCause();
        }
    }

    @FunctionalInterface
    private interface Handler {

        Object handle(Object target, Method method, Object[] args) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, T target, Handler handler) {
        InvocationHandler invocation = (proxy, method, args) -> {
            // What lies behind the counting handle is the target's to answer — a pool hands out a new handle for the
            // same physical connection at every checkout, and callers may key session state by it; only what the
            // target cannot unwrap to is answered by the handle itself.
            if (method.getName().equals("unwrap") && args.length == 1 && target instanceof java.sql.Wrapper wrapper
                    && !wrapper.isWrapperFor((Class<?>) args[0]) && ((Class<?>) args[0]).isInstance(proxy)) {
                return proxy;
            }
            return handler.handle(target, method, args);
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, invocation));
    }
}
