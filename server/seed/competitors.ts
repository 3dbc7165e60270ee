import { COMPETITORS } from './catalog.js';
import { STREAMS, type CompanyPlan } from './generate.js';
import { Random } from './random.js';

/** Competitors drawn around each location. */
const PER_LOCATION = 12;

/** Farthest distance of a competitor from its location, in metres. */
const RADIUS_METRES = 2000;

/** Metres in one degree of latitude. */
const METRES_PER_DEGREE = 111_320;

/** One nearby business in a location's competitor set. */
export interface CompetitorRecord {
  locationIndex: number;
  name: string;
  category: string;
  latitude: number;
  longitude: number;
  priceLevel: number;
  rating: number;
}

/**
 * A dozen competitors within about 2 km of every location: distinct names per location, spread evenly
 * over the disc around it (hence the square root of the radius draw), ratings near four stars.
 */
export function companyCompetitors(plan: CompanyPlan): CompetitorRecord[] {
  return plan.blueprint.locations.flatMap((location, locationIndex) => {
    const random = Random.derive(plan.seed, plan.number, STREAMS.competitors, locationIndex);
    return random.sample(COMPETITORS, PER_LOCATION).map((competitor) => {
      const distance = Math.max(150, RADIUS_METRES * Math.sqrt(random.next()));
      const bearing = random.uniform(0, 2 * Math.PI);
      const dLatitude = (distance * Math.cos(bearing)) / METRES_PER_DEGREE;
      const dLongitude =
        (distance * Math.sin(bearing)) / (METRES_PER_DEGREE * Math.cos((location.latitude * Math.PI) / 180));
      const rating = Math.min(4.9, Math.max(2.8, random.normal(4.1, 0.35)));
      return {
        locationIndex,
        name: competitor.name,
        category: competitor.category,
        latitude: Number((location.latitude + dLatitude).toFixed(6)),
        longitude: Number((location.longitude + dLongitude).toFixed(6)),
        priceLevel: competitor.priceLevel,
        rating: Math.round(rating * 10) / 10,
      };
    });
  });
}
