package io.distlock.spring.support;

import java.util.List;

/**
 * One or more {@link io.distlock.spring.DistributedLock} or {@link io.distlock.spring.OncePerSlot} declarations are
 * wrong: each problem names the annotation, the class, the method and the attribute at fault. Thrown when the application context starts, so that no guarded method runs
 * with a mistake in its declaration.
 */
public class InvalidLockDeclarationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /**
     * Creates the exception.
     *
     * @param problems one message per problem
     */
    public InvalidLockDeclarationException(List<String> problems) {
        super(message(problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * The problems found.
     *
     * @return one message per problem
     */
    public List<String> problems() {
        return problems;
    }

    private static String message(List<String> problems) {
        if (problems.size() == 1) {
            return problems.get(0);
        }
        return problems.size() + " invalid lock declarations (@DistributedLock, @OncePerSlot):\n - "
                + String.join("\n - ", problems);
    }
}
