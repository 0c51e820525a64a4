import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { BUTTON_PRIMARY } from "@/components/auth/password-input";
import { Panel } from "@/components/ui/panel";
import { safeNextPath } from "@/lib/auth/next-path";
import { uiAuthState } from "@/lib/auth/ui-session";
import { getI18n } from "@/lib/i18n/locale";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.auth.loginTitle };
}

type LoginPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Log in, or set the first admin password; afterwards go back to `next` (same site only).
export default async function LoginPage({ searchParams }: LoginPageProps) {
  const [{ t }, state, params] = await Promise.all([getI18n(), uiAuthState(), searchParams]);
  const raw = params.next;
  const next = safeNextPath(Array.isArray(raw) ? raw[0] : raw);
  if (state.authEnabled && state.loggedIn) redirect(next);

  const setup = state.authEnabled && !state.hasPassword;
  const title = !state.authEnabled ? t.auth.disabledTitle : setup ? t.auth.setupTitle : t.auth.loginTitle;
  return (
    <div className="mx-auto w-full max-w-sm px-4 py-10">
      <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
      <Panel className="mt-4 px-4 py-4">
        {state.authEnabled ? (
          <>
            <p className="mb-4 text-sm leading-6 text-muted">{setup ? t.auth.setupIntro : t.auth.loginIntro}</p>
            <LoginForm t={t.auth} setup={setup} next={next} />
          </>
        ) : (
          <>
            <p className="text-sm leading-6">{t.auth.disabledBody}</p>
            <Link href="/settings#admin-auth" className={`${BUTTON_PRIMARY} mt-4`}>
              {t.auth.goToSettings}
            </Link>
          </>
        )}
      </Panel>
    </div>
  );
}
