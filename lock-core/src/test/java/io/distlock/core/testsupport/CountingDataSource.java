package io.distlock.core.testsupport;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Counts the statements prepared or created on a data source, to prove how many round trips an operation costs.
 */
public final class CountingDataSource extends DelegatingDataSource {

    private final AtomicInteger statements = new AtomicInteger();

    /**
     * Wraps a data source.
     *
     * @param target the data source that does the work
     */
    public CountingDataSource(DataSource target) {
        super(target);
    }

    /** @return statements prepared or created since creation or the last {@link #reset()} */
    public int statements() {
        return statements.get();
    }

    /** Starts counting from zero. */
    public void reset() {
        statements.set(0);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return counting(super.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return counting(super.getConnection(username, password));
    }

    private Connection counting(Connection target) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    String name = method.getName();
                    if (name.equals("prepareStatement") || name.equals("createStatement") || name.equals("prepareCall")) {
                        statements.incrementAndGet();
                    }
                    try {
                        return method.invoke(target, args);
                    }
                    catch (InvocationTargetException ex) {
                        throw ex.getCause();
                    }
                });
    }
}
