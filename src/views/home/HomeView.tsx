import { useTranslation } from 'react-i18next';
import './home.css';

/** The landing screen: what the product is and where its API is documented. */
export function HomeView() {
  const { t } = useTranslation();
  return (
    <main className="home">
      <h1 className="home__brand">{t('brand')}</h1>
      <p className="home__tagline">{t('home.tagline')}</p>
      <p className="home__intro">{t('home.intro')}</p>
      <p className="home__note">{t('home.signInSoon')}</p>
      <a className="home__link" href="/api/docs">
        {t('home.apiDocs')}
      </a>
    </main>
  );
}
