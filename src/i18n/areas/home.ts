import { defineArea } from '../catalog.js';

/** The public home page. */
export const home = defineArea({
  en: {
    tagline: 'Know your guests. Bring them back.',
    intro: 'Guest analytics and marketing for restaurant groups with one or many locations.',
    apiDocs: 'API documentation',
    signInSoon: 'Sign-in opens here once your account is set up.',
  },
  ch: {
    tagline: '了解您的顾客，让他们再次光临。',
    intro: '为拥有一家或多家门店的餐饮集团提供顾客分析与营销。',
    apiDocs: 'API 文档',
    signInSoon: '账户设置完成后，将在此处登录。',
  },
  es: {
    tagline: 'Conozca a sus clientes. Haga que vuelvan.',
    intro: 'Análisis de clientes y marketing para grupos de restaurantes con uno o varios locales.',
    apiDocs: 'Documentación de la API',
    signInSoon: 'El inicio de sesión se abrirá aquí cuando su cuenta esté configurada.',
  },
  jp: {
    tagline: 'お客様を知り、再来店につなげる。',
    intro: '一店舗から多店舗まで、飲食グループのための顧客分析とマーケティング。',
    apiDocs: 'API ドキュメント',
    signInSoon: 'アカウントの設定が完了すると、ここからサインインできます。',
  },
  de: {
    tagline: 'Kennen Sie Ihre Gäste. Holen Sie sie zurück.',
    intro: 'Gästeanalyse und Marketing für Restaurantgruppen mit einem oder vielen Standorten.',
    apiDocs: 'API-Dokumentation',
    signInSoon: 'Die Anmeldung öffnet sich hier, sobald Ihr Konto eingerichtet ist.',
  },
  fr: {
    tagline: 'Connaissez vos clients. Faites-les revenir.',
    intro:
      'Analyse de la clientèle et marketing pour les groupes de restaurants à un ou plusieurs établissements.',
    apiDocs: 'Documentation de l’API',
    signInSoon: 'La connexion s’ouvrira ici une fois votre compte configuré.',
  },
});
