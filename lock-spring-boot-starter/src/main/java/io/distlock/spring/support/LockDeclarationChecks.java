package io.distlock.spring.support;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Runs every {@link LockDeclarationCheck} of the context once all singletons exist, before scheduled jobs start, and
 * fails the start with an {@link InvalidLockDeclarationException} listing the problems of all of them at once: a
 * {@code @OncePerSlot} mistake is told beside the {@code @DistributedLock} ones, not after they were fixed. Once no
 * check found a problem, each is told it was accepted.
 */
public final class LockDeclarationChecks implements SmartInitializingSingleton {

    private final ObjectProvider<LockDeclarationCheck> checks;

    /**
     * @param checks the checks of the aspects present
     */
    public LockDeclarationChecks(ObjectProvider<LockDeclarationCheck> checks) {
        this.checks = checks;
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<LockDeclarationCheck> all = check();
        all.forEach(LockDeclarationCheck::accepted);
    }

    /**
     * Runs every check, as early as the first scheduled bean ({@link DeclarationsCheckedBeforeScheduling}) and once
     * all singletons exist.
     *
     * @return the checks, all of which found nothing
     * @throws InvalidLockDeclarationException listing every problem found
     */
    List<LockDeclarationCheck> check() {
        List<LockDeclarationCheck> all = checks.orderedStream().toList();
        Set<String> problems = new LinkedHashSet<>();
        all.forEach(check -> problems.addAll(check.problems()));
        if (!problems.isEmpty()) {
            throw new InvalidLockDeclarationException(new ArrayList<>(problems));
        }
        return all;
    }
}
