import { signIn, signUp } from '../api.js';
import { alertBox, h, pending } from '../dom.js';

/** Which field a 400's message names, so the page can point at it. */
function fieldNamed(message) {
  if (/password/i.test(message)) return 'password';
  if (/e-?mail/i.test(message)) return 'email';
  return null;
}

function authForm({ mode, ctx }) {
  const signup = mode === 'signup';
  const errors = h('div', { class: 'form-errors' });
  const email = h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email', required: true, inputmode: 'email', spellcheck: 'false' });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: signup ? 'new-password' : 'current-password', required: true, minlength: signup ? 12 : undefined });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-block' }, signup ? 'Create account' : 'Sign in');
  const form = h(
    'form',
    { class: 'stack', novalidate: true },
    errors,
    h('div', { class: 'field' }, h('label', { for: 'email' }, 'E-mail'), email),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'password' }, 'Password'),
      password,
      signup ? h('p', { class: 'hint', id: 'password-hint' }, 'At least 12 characters; common passwords are refused.') : null,
    ),
    submit,
  );
  if (signup) password.setAttribute('aria-describedby', 'password-hint');

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    errors.replaceChildren();
    for (const input of [email, password]) input.removeAttribute('aria-invalid');
    await pending(submit, signup ? 'Creating account…' : 'Signing in…', async () => {
      try {
        const account = await (signup ? signUp : signIn)(email.value.trim(), password.value);
        ctx.signedIn(account, signup);
      } catch (err) {
        errors.replaceChildren(alertBox('error', err.message));
        const field = err.status === 400 ? fieldNamed(err.message) : null;
        const target = field === 'email' ? email : field === 'password' ? password : null;
        if (target) {
          target.setAttribute('aria-invalid', 'true');
          target.focus();
        }
      }
    });
  });
  return form;
}

/** The words around each form and the link to the other one. */
const PAGES = {
  signup: {
    title: 'Create your account',
    lead: '500 free credits to start. No card, no e-mail verification: your first API call is a minute away.',
    other: ['Already have an account? ', '#/signin', 'Sign in'],
  },
  signin: { title: 'Sign in', lead: 'Manage your API keys, usage and credits.', other: ['New here? ', '#/signup', 'Create an account'] },
};

function authPage(mode, ctx) {
  const { title, lead, other } = PAGES[mode];
  const [question, href, label] = other;
  return h(
    'section',
    { class: 'auth' },
    h('div', { class: 'card auth-card' }, h('h1', {}, title), h('p', { class: 'lead' }, lead), authForm({ mode, ctx }), h('p', { class: 'switch' }, question, h('a', { href }, label))),
  );
}

export const renderSignUp = (ctx) => authPage('signup', ctx);
export const renderSignIn = (ctx) => authPage('signin', ctx);
